// The mailbox as an accessible HTML page: newest message first, every value escaped, links followable.

/** A stored message as the mailbox lists it. */
export type MailMessage = {
  id: number;
  to: string;
  subject: string;
  text: string;
  link: string | null;
  created_at: string;
};

export function escapeHtml(s: string): string {
  return s
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

function renderMessage(m: MailMessage): string {
  const link = m.link ? `<p><a href="${escapeHtml(m.link)}">Open the link in this message</a></p>` : "";
  return `<article aria-labelledby="m${m.id}">
  <h2 id="m${m.id}">${escapeHtml(m.subject)}</h2>
  <dl>
    <dt>To</dt><dd>${escapeHtml(m.to)}</dd>
    <dt>Received</dt><dd><time datetime="${escapeHtml(m.created_at)}">${escapeHtml(m.created_at)}</time></dd>
  </dl>
  <pre>${escapeHtml(m.text)}</pre>
  ${link}
</article>`;
}

export function renderMailboxPage(messages: MailMessage[]): string {
  const body = messages.length ?
    messages.map(renderMessage).join("\n") :
    "<p>No messages yet. Password-reset and confirmation e-mails appear here.</p>";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mailbox (${messages.length}) – local backend</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 48rem; margin: 0 auto; padding: 1rem; color: #111; background: #fff; }
  article { border-top: 1px solid #888; padding: 0.5rem 0 1rem; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 0 1rem; margin: 0; }
  dt { font-weight: 600; }
  dd { margin: 0; }
  pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f3f3f3; padding: 0.75rem; }
  a { color: #0645ad; }
  a:focus-visible { outline: 3px solid #0645ad; outline-offset: 2px; }
</style>
</head>
<body>
<main>
<h1>Mailbox</h1>
<p>E-mails the local backend would have sent, newest first. Nothing leaves this machine.</p>
${body}
</main>
</body>
</html>
`;
}
