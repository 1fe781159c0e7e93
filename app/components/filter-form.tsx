import type { ReactNode } from "react";
import { Form, useLocation, useSubmit } from "react-router";

/**
 * A list's search and filters as a GET form: the address holds them, so a view can be shared.
 * Its fields always show what the address says: the form is keyed by the location, so every
 * navigation (a search, Clear filters, Back) renders them afresh from the loader's filters
 * rather than keeping what was typed last. Choosing in a select, or ticking a box, searches at once.
 */
export function FilterForm({ label, className, children }: { label: string; className: string; children: ReactNode }) {
  const location = useLocation();
  const submit = useSubmit();
  return (
    <Form
      key={location.key}
      method="get"
      role="search"
      aria-label={label}
      className={className}
      onChange={(event) => {
        const target = event.target;
        if (target instanceof HTMLSelectElement || (target instanceof HTMLInputElement && target.type === "checkbox")) void submit(event.currentTarget);
      }}
    >
      {children}
    </Form>
  );
}
