// /account (signed in): who you are signed in as, password and sign-out (this device, or every device);
// preferences (the generator's defaults and more); this device's copy of the library; and deleting the
// account.
import { useState } from "react";
import { useSession } from "../../state/session-store";
import { showToast } from "../../state/toasts";
import { PageHeader } from "../../ui/page-header";
import { ChangePasswordForm } from "./change-password-form";
import { DeleteAccount } from "./delete-account";
import { DeviceStorage } from "./device-storage";
import { PreferencesForm } from "./preferences-form";
import { SignOutButton, SignOutEverywhereButton } from "./sign-out-button";

const CARD = "card border border-base-300 bg-base-100";

export default function AccountPage() {
  const { user } = useSession();
  const [changingPassword, setChangingPassword] = useState(false);

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <PageHeader title="Account" lead="Your sign-in, preferences and what this device keeps." />
      <section aria-labelledby="signin-title" className={CARD}>
        <div className="card-body gap-4">
          <h2 id="signin-title" className="card-title text-lg">
            Sign-in
          </h2>
          <dl className="grid gap-1 sm:grid-cols-[10rem_1fr]">
            <dt className="text-sm text-base-content/80">Email</dt>
            <dd className="font-medium break-all">{user?.email}</dd>
          </dl>
          {changingPassword ? (
            <ChangePasswordForm
              onDone={() => {
                setChangingPassword(false);
                showToast({ tone: "success", title: "Password updated" });
              }}
            />
          ) : null}
          <div className="flex flex-wrap gap-3">
            <button
              type="button"
              className="btn btn-outline btn-sm"
              aria-expanded={changingPassword}
              onClick={() => setChangingPassword((v) => !v)}
            >
              {changingPassword ? "Cancel password change" : "Change password"}
            </button>
            <SignOutButton />
            <SignOutEverywhereButton />
          </div>
        </div>
      </section>
      <section aria-label="Preferences" className={CARD}>
        <div className="card-body">
          <PreferencesForm userId={user?.id} />
        </div>
      </section>
      <section aria-label="This device" className={CARD}>
        <div className="card-body">
          <DeviceStorage userId={user?.id} />
        </div>
      </section>
      <section aria-label="Delete account" className={`${CARD} border-error/40`}>
        <div className="card-body">
          <DeleteAccount email={user?.email ?? ""} userId={user?.id} />
        </div>
      </section>
    </div>
  );
}
