import type { ReactNode } from "react";
import { Label } from "#app/components/ui/label.tsx";
import { useInToast } from "#app/lib/toasts.ts";

interface FieldProps {
  id: string;
  label: string;
  required?: boolean;
  hint?: string;
  error?: string;
  children: ReactNode;
}

/**
 * A labelled form field with its hint and its message beside it. The required mark sits
 * outside the label, so the field's accessible name is exactly `label`. Give the control
 * `fieldControlProps(id, ...)` so assistive technology links it to its message and hint.
 */
export function FormField({ id, label, required = false, hint, error, children }: FieldProps) {
  return (
    <div className="grid content-start gap-2">
      <div className="flex items-center gap-1">
        <Label htmlFor={id}>{label}</Label>
        {required ? (
          <span aria-hidden="true" className="text-sm leading-none font-medium text-destructive">
            *
          </span>
        ) : null}
      </div>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      <FieldMessage id={id} error={error} />
    </div>
  );
}

/**
 * A field's message. While a toast says the same words (app/lib/toasts.ts), they are shown here
 * as generated content, which people see and assistive technology reads as the control's
 * description, but which is not the page's text: the message is in the text once, in the toast.
 */
export function FieldMessage({ id, error }: { id: string; error?: string }) {
  const inToast = useInToast(error);
  if (!error) return null;
  return inToast ? (
    <p id={`${id}-error`} data-message={error} className="text-sm text-destructive after:content-[attr(data-message)]" />
  ) : (
    <p id={`${id}-error`} className="text-sm text-destructive">
      {error}
    </p>
  );
}

/** The attributes that tie a control to its FormField's message and hint. */
export function fieldControlProps(id: string, { error, hintId, required }: { error?: string; hintId?: string; required?: boolean } = {}) {
  const describedBy = [error ? `${id}-error` : null, hintId].filter(Boolean).join(" ");
  return {
    id,
    required,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy || undefined,
  } as const;
}
