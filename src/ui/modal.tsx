// A modal dialog on the native <dialog>: showModal() makes the rest of the page inert and traps
// focus, Escape closes it, and focus returns to the control that opened it. Mount it only while it
// is open; closing is the parent's decision (onClose), so the dialog never disappears behind state.
import { useEffect, useId, useRef, type ReactNode } from "react";
import { Icon } from "./icons";
import { Spinner } from "./spinner";

export type ModalProps = {
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  /** Wider box for large views (an image with its settings). */
  size?: "md" | "lg";
  /** Optional description id for aria-describedby (e.g. a confirmation's question). */
  describedBy?: string;
};

export function Modal({ title, onClose, children, size = "md", describedBy }: ModalProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (typeof el.showModal === "function" && !el.open) el.showModal();
    else el.setAttribute("open", "");
    // The first field or action gets focus; the close button only when there is nothing else.
    const first = el.querySelector<HTMLElement>("[data-autofocus], .modal-box input, .modal-box textarea");
    first?.focus();
    return () => {
      if (el.open && typeof el.close === "function") el.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  return (
    <dialog
      ref={dialog}
      className="modal modal-bottom sm:modal-middle"
      aria-labelledby={titleId}
      aria-describedby={describedBy}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <div className={`modal-box ${size === "lg" ? "w-full max-w-4xl" : "max-w-lg"}`}>
        <div className="mb-3 flex items-start justify-between gap-3">
          <h2 id={titleId} className="text-lg font-bold break-words">
            {title}
          </h2>
          <button
            type="button"
            className="btn btn-ghost btn-sm btn-circle shrink-0"
            aria-label="Close"
            onClick={onClose}
          >
            <Icon name="close" className="size-4" />
          </button>
        </div>
        {children}
      </div>
      <div className="modal-backdrop">
        {/* A click outside the box closes, as Escape does; keyboard users have the Close button. */}
        <button type="button" tabIndex={-1} aria-hidden="true" onClick={onClose}>
          close
        </button>
      </div>
    </dialog>
  );
}

/** A yes/no question in a modal. Cancel takes focus first, so a stray Enter never confirms a loss. */
export function ConfirmModal({
  title,
  body,
  confirmLabel,
  tone = "error",
  busy = false,
  onConfirm,
  onClose,
}: {
  title: string;
  body: ReactNode;
  confirmLabel: string;
  tone?: "error" | "primary";
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const bodyId = useId();
  return (
    <Modal title={title} onClose={onClose} describedBy={bodyId}>
      <div id={bodyId} className="text-base-content/85">
        {body}
      </div>
      <div className="modal-action">
        <button type="button" data-autofocus className="btn btn-ghost" onClick={onClose} disabled={busy}>
          Cancel
        </button>
        <button
          type="button"
          className={`btn ${tone === "error" ? "btn-error" : "btn-primary"}`}
          onClick={onConfirm}
          disabled={busy}
        >
          {busy && <Spinner size="xs" />}
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
