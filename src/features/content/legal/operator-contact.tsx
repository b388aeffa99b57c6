// How a public page tells people to reach whoever runs this site: the contact address is configuration
// (CONTACT_EMAIL for `npm start`, VITE_CONTACT_EMAIL baked into a build; src/api/config.ts), shown as a
// mailto link, and when none is set the page says so plainly instead of pointing at nobody
// (docs/decisions/143-what-the-public-pages-say.md).
import { appConfig, builtConfig } from "../../../api/config";
import { useHydrated } from "../../../lib/use-hydrated";

export const NO_CONTACT_ADDRESS = "This site has not published a contact address.";

/**
 * This site's contact address, or "". While a prerendered page hydrates it is the build's (the words the
 * page was written with), then the one /app-config.js gives, so a server that names another address
 * never makes hydration find other words than the HTML's.
 */
export function useContactEmail(): string {
  const hydrated = useHydrated();
  return hydrated ? appConfig().contactEmail : builtConfig().contactEmail;
}

/**
 * One sentence: "`purpose`, write to the operator of this site at <address>." with the address as a
 * mailto link, or, with none configured, that the operator is the one to ask and that this site has not
 * published a contact address.
 */
export function OperatorContact({ purpose }: { purpose: string }) {
  const email = useContactEmail();
  if (!email) {
    return (
      <>
        {purpose}, the operator of this site is the one to ask. {NO_CONTACT_ADDRESS}
      </>
    );
  }
  return (
    <>
      {purpose}, write to the operator of this site at{" "}
      <a href={`mailto:${email}`} className="link">
        {email}
      </a>
      .
    </>
  );
}
