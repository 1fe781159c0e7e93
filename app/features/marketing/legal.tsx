/** Building blocks of the Terms of Service and Privacy Policy pages. */
import type { ReactNode } from "react";
import { PageHeader } from "#app/components/page-header.tsx";

export function LegalDocument({
  title,
  summary,
  lastUpdated,
  children,
}: {
  title: string;
  summary: string;
  lastUpdated: { iso: string; text: string };
  children: ReactNode;
}) {
  return (
    <article className="mx-auto max-w-3xl">
      <PageHeader title={title} subtitle={summary} />
      <p className="-mt-4 mb-8 text-sm text-muted-foreground">
        Last Updated: <time dateTime={lastUpdated.iso}>{lastUpdated.text}</time>
      </p>
      <div className="grid gap-10 leading-7 [&_a]:text-primary-strong [&_a]:underline [&_a]:underline-offset-4 [&_a]:[overflow-wrap:anywhere]">
        {children}
      </div>
    </article>
  );
}

export function LegalSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="grid gap-3">
      <h2 id={id} className="text-xl font-semibold tracking-tight">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function LegalList({ children }: { children: ReactNode }) {
  return <ul className="grid list-disc gap-2 pl-6">{children}</ul>;
}

export function MailLink({ address }: { address: string }) {
  return <a href={`mailto:${address}`}>{address}</a>;
}

/** The business's postal address, as configured. */
export function BusinessAddress({ address }: { address: string }) {
  return <address className="not-italic">{address}</address>;
}
