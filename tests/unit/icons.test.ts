/**
 * app/components/icons.tsx (issue 52): each icon draws lucide-react's markup, its default look
 * (size, fill, stroke) left to app.css's `.lucide`, with its drawing made once; hidden from assistive technology unless named, as
 * lucide-react does; and pages take icons from there only (eslint.config.js).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import * as lucide from "lucide-react";
import { createElement as h, type ComponentType } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { lintRefusals } from "../support/lint-refusals.ts";
import * as icons from "../../app/components/icons.tsx";

type Props = Record<string, unknown>;
const ours: Array<[string, unknown]> = Object.entries(icons).filter(([, value]) => typeof value === "function");
const draw = (component: unknown, props: Props) => renderToStaticMarkup(h(component as ComponentType<Props>, props));

/** lucide's default attributes of an `<svg>`, which app.css's `.lucide` gives every icon instead. */
const LUCIDE_DEFAULTS = [
  ' xmlns="http://www.w3.org/2000/svg"',
  ' width="24"',
  ' height="24"',
  ' fill="none"',
  ' stroke="currentColor"',
  ' stroke-width="2"',
  ' stroke-linecap="round"',
  ' stroke-linejoin="round"',
];
const withoutDefaults = (markup: string) => LUCIDE_DEFAULTS.reduce((text, attribute) => text.replace(attribute, ""), markup);

describe("the app's icons", () => {
  it("draw lucide-react's markup for every icon, its default look aside, with and without classes and names", () => {
    expect(ours.length).toBeGreaterThan(40);
    const cases: Props[] = [
      {},
      { "aria-hidden": "true" },
      { "aria-hidden": true, className: "size-4 shrink-0 text-primary" },
      { role: "img", "aria-label": "Verified", className: "size-3" },
      { className: "size-5 fill-primary", "data-x": "1" },
    ];
    for (const [name, icon] of ours) {
      const source = (lucide as unknown as Record<string, unknown>)[name];
      expect(source, name).toBeDefined();
      for (const props of cases) {
        const theirs = draw(source, props);
        for (const attribute of LUCIDE_DEFAULTS) expect(theirs, name).toContain(attribute);
        expect(draw(icon, props), `${name} ${JSON.stringify(props)}`).toBe(withoutDefaults(theirs));
      }
    }
    expect(draw(icons.Mail, {})).toContain('aria-hidden="true"');
    expect(draw(icons.Mail, { "aria-label": "E-mail" })).not.toContain("aria-hidden");
  });

  it("take lucide's default look from app.css, where a class passed in (a utility) wins over it", () => {
    const css = readFileSync(path.join(import.meta.dirname, "../../app/app.css"), "utf8");
    const components = css.slice(css.indexOf("@layer components"));
    const rule = /\.lucide \{([^}]*)\}/.exec(components)?.[1] ?? "";
    const declarations = rule
      .split(";")
      .map((part) => part.trim())
      .filter(Boolean);
    expect(declarations).toEqual([
      "width: 24px",
      "height: 24px",
      "fill: none",
      "stroke: currentColor",
      "stroke-width: 2",
      "stroke-linecap: round",
      "stroke-linejoin: round",
    ]);
  });

  it("are the only way a page draws one: lucide-react imported elsewhere in app/ is refused", async () => {
    const code = `import { Mail } from "lucide-react";\nexport const icon = Mail;\n`;
    const refusals = (filePath: string) => lintRefusals(code, filePath, "app/components/icons.tsx");
    expect(await refusals("app/features/leads/throwaway.tsx")).toBe(1);
    expect(await refusals("app/routes/throwaway.tsx")).toBe(1);
    expect(await refusals("app/components/icons.tsx")).toBe(0);
  }, 60_000);
});
