/**
 * The README's table "E-mail the product sends" is checked against the event registry
 * (server/events/registry.ts; decision 0036): it lists exactly the declarations with an
 * e-mail, in the registry's order, with their subject and recipient as declared, and the bell
 * column says "—" exactly for those with no bell entry. Neither can change without the other.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { EventDeclaration } from "../../server/events/declaration.ts";
import { EVENTS } from "../../server/events/registry.ts";

const readme = readFileSync(path.resolve(import.meta.dirname, "../../README.md"), "utf8");

/** The table's rows: [subject, to, sent when, bell links to]. */
function tableRows(): string[][] {
  const section = readme.split(/^## E-mail the product sends$/m)[1]!.split(/^## /m)[0]!;
  return section
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("| E-mail (subject)"))
    .map((line) =>
      line
        .slice(1, -1)
        .split(" | ")
        .map((cell) => cell.trim()),
    );
}

const declarations = Object.entries(EVENTS) as Array<[string, EventDeclaration<unknown>]>;

describe("the README's e-mail table and the event registry", () => {
  it("lists each event with an e-mail once, in the registry's order, with its subject and recipient", () => {
    const declared = declarations.filter(([, d]) => d.email).map(([, d]) => [d.readme?.subject, d.readme?.to]);
    expect(declared.length).toBeGreaterThan(20);
    expect(tableRows().map(([subject, to]) => [subject, to])).toEqual(declared);
  });

  it("says '—' for the bell exactly where the event has no bell entry", () => {
    const bells = declarations.filter(([, d]) => d.email).map(([kind, d]) => [kind, Boolean(d.bell)]);
    expect(tableRows().map(([, , , bell], i) => [bells[i]?.[0], bell !== "—"])).toEqual(bells);
  });

  it("gives a README row only to an event with an e-mail, and a recipient to every event that tells someone", () => {
    for (const [kind, d] of declarations) {
      expect({ kind, readme: Boolean(d.readme) }).toEqual({ kind, readme: Boolean(d.email) });
      if (d.email || d.bell) expect({ kind, to: Boolean(d.to) }).toEqual({ kind, to: true });
    }
  });

  it("gives a bell of another event's kind only the kind of an event with a bell of its own", () => {
    const kinds = declarations.filter(([, d]) => d.bellKind !== undefined);
    expect(kinds.length).toBeGreaterThan(0);
    for (const [kind, d] of kinds) {
      const other = EVENTS[d.bellKind as keyof typeof EVENTS] as EventDeclaration<unknown> | undefined;
      expect({ kind, bell: Boolean(d.bell), other: Boolean(other?.bell), itsOwn: other?.bellKind }).toEqual({ kind, bell: true, other: true, itsOwn: undefined });
    }
  });
});
