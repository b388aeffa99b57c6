// Stripe's test cards, as its testing docs describe them: which numbers pay, which are declined at once, and
// which attach and pay now but fail every later off-session charge. A number that is not a test card is
// refused as Stripe's test mode refuses a real card.
import { StripeError } from "./errors.ts";
import { type Card, newId } from "./store.ts";

interface TestCard {
  brand: string;
  outcome: "pays" | "declined" | "insufficient_funds" | "fails_renewal";
}

const TEST_CARDS: Record<string, TestCard> = {
  "4242424242424242": { brand: "visa", outcome: "pays" },
  "4000056655665556": { brand: "visa", outcome: "pays" },
  "5555555555554444": { brand: "mastercard", outcome: "pays" },
  "378282246310005": { brand: "amex", outcome: "pays" },
  "4000000000000341": { brand: "visa", outcome: "fails_renewal" },
  "4000000000000002": { brand: "visa", outcome: "declined" },
  "4000000000009995": { brand: "visa", outcome: "insufficient_funds" },
};

const cardError = (message: string, code: string, param?: string, decline?: string) =>
  new StripeError(402, "card_error", message, code, param, decline);

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** Month and year of an expiry written `MM / YY`, `MM/YYYY` and the like, or null. */
function expiry(text: string): { month: number; year: number } | null {
  const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(text);
  if (!m) return null;
  const month = Number(m[1]);
  const year = m[2].length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
  return month >= 1 && month <= 12 ? { month, year } : null;
}

/** The card a page's form describes, or the card_error Stripe would answer. `now` is the stand-in clock. */
export function readCard(form: { number: string; exp: string; cvc: string }, now: number): Card {
  const digits = form.number.replace(/[\s-]/g, "");
  if (!/^\d{12,19}$/.test(digits) || !luhn(digits)) {
    throw cardError("Your card number is invalid.", "invalid_number", "number");
  }
  const exp = expiry(form.exp);
  if (!exp) throw cardError("Your card's expiration date is invalid.", "invalid_expiry_month", "exp_month");
  const date = new Date(now * 1000);
  const [year, month] = [date.getUTCFullYear(), date.getUTCMonth() + 1];
  if (exp.year < year || (exp.year === year && exp.month < month)) {
    throw cardError("Your card has expired.", "expired_card", "exp_month", "expired_card");
  }
  if (!/^\d{3,4}$/.test(form.cvc.trim())) {
    throw cardError("Your card's security code is invalid.", "invalid_cvc", "cvc");
  }
  const test = TEST_CARDS[digits];
  if (!test) {
    throw cardError(
      "Your card was declined. This is a test-mode payment and the card is not one of Stripe's test cards.",
      "card_declined",
      undefined,
      "test_mode_live_card",
    );
  }
  if (test.outcome === "declined") {
    throw cardError("Your card was declined.", "card_declined", undefined, "generic_decline");
  }
  if (test.outcome === "insufficient_funds") {
    throw cardError("Your card has insufficient funds.", "card_declined", undefined, "insufficient_funds");
  }
  return {
    pm: newId("pm"),
    brand: test.brand,
    last4: digits.slice(-4),
    expMonth: exp.month,
    expYear: exp.year,
    failsRenewal: test.outcome === "fails_renewal",
  };
}
