// The person's invoices on /billing: date, number, amount, status and Stripe's own pages for each (the
// hosted invoice and its PDF). Ids never show; the invoice's number does.
import type { BillingInvoice } from "../../api/billing";
import { formatAmount, formatDate } from "./billing-text";

export function InvoiceList({ invoices }: { invoices: readonly BillingInvoice[] }) {
  if (invoices.length === 0) return <p className="text-sm text-base-content/80">No invoices yet.</p>;
  return (
    <div className="overflow-x-auto rounded-box border border-base-300">
      <table className="table table-sm">
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Number</th>
            <th scope="col">Amount</th>
            <th scope="col">Status</th>
            <th scope="col">
              <span className="sr-only">Links</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {invoices.map((invoice) => (
            <tr key={invoice.id}>
              <td>{formatDate(invoice.created)}</td>
              <td className="font-mono text-xs">{invoice.number ?? "—"}</td>
              <td className="tabular-nums">{formatAmount(invoice)}</td>
              <td className="capitalize">{invoice.status}</td>
              <td className="flex flex-wrap gap-3">
                {invoice.hostedUrl && (
                  <a className="link" href={invoice.hostedUrl} target="_blank" rel="noopener noreferrer">
                    View<span className="sr-only"> invoice {invoice.number ?? formatDate(invoice.created)}</span>
                  </a>
                )}
                {invoice.pdfUrl && (
                  <a className="link" href={invoice.pdfUrl} target="_blank" rel="noopener noreferrer">
                    PDF<span className="sr-only"> of invoice {invoice.number ?? formatDate(invoice.created)}</span>
                  </a>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
