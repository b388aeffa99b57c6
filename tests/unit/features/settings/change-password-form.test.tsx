import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";

const changePassword = vi.fn();
vi.mock("#src/api/auth.ts", () => ({ changePassword }));

const { ChangePasswordForm } = await import("#src/features/settings/change-password-form.tsx");

async function fill(current: string, next: string, confirm = next) {
  if (current) await userEvent.type(screen.getByLabelText("Current password"), current);
  await userEvent.type(screen.getByLabelText("New password"), next);
  await userEvent.type(screen.getByLabelText("Confirm new password"), confirm);
  await userEvent.click(screen.getByRole("button", { name: "Update password" }));
}

beforeEach(() => changePassword.mockReset());

describe("change password form", () => {
  it("asks for the current password before anything is sent", async () => {
    render(<ChangePasswordForm onDone={vi.fn()} />);
    await fill("", "a-new-passphrase");
    expect(screen.getByRole("alert").textContent).toContain("Enter your current password.");
    expect(changePassword).not.toHaveBeenCalled();
  });

  it("refuses a new password equal to the current one without a network call", async () => {
    render(<ChangePasswordForm onDone={vi.fn()} />);
    await fill("same-passphrase", "same-passphrase");
    expect(screen.getByRole("alert").textContent).toContain("different from your current one");
    expect(changePassword).not.toHaveBeenCalled();
  });

  it("sends the current and the new password, and shows the service's refusal", async () => {
    changePassword.mockResolvedValueOnce({
      ok: false,
      error: { code: "invalid_credentials", message: "Your current password is not correct." },
    });
    const onDone = vi.fn();
    render(<ChangePasswordForm onDone={onDone} />);
    await fill("old-passphrase", "a-new-passphrase");
    expect(changePassword).toHaveBeenCalledWith("old-passphrase", "a-new-passphrase");
    expect((await screen.findByRole("alert")).textContent).toContain("Your current password is not correct.");
    expect(onDone).not.toHaveBeenCalled();
  });

  it("finishes when the service accepts", async () => {
    changePassword.mockResolvedValueOnce({ ok: true, value: undefined });
    const onDone = vi.fn();
    render(<ChangePasswordForm onDone={onDone} />);
    await fill("old-passphrase", "a-new-passphrase");
    await vi.waitFor(() => expect(onDone).toHaveBeenCalled());
  });
});
