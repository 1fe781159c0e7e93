/**
 * app/components/icons.tsx (issue 52): each icon draws lucide-react's markup, attribute for
 * attribute, with its drawing made once; hidden from assistive technology unless named, as
 * lucide-react does; and pages take icons from there only (eslint.config.js).
 */
import * as lucide from "lucide-react";
import { createElement as h, type ComponentType } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { lintRefusals } from "../support/lint-refusals.ts";
import * as icons from "../../app/components/icons.tsx";

type Props = Record<string, unknown>;
const ours: Array<[string, unknown]> = Object.entries(icons).filter(([, value]) => typeof value === "function");
const draw = (component: unknown, props: Props) => renderToStaticMarkup(h(component as ComponentType<Props>, props));

describe("the app's icons", () => {
  it("draw lucide-react's markup for every icon, with and without classes and names", () => {
    expect(ours.length).toBeGreaterThan(40);
    const cases: Props[] = [
      {},
      { "aria-hidden": "true" },
      { "aria-hidden": true, className: "size-4 shrink-0 text-primary" },
      { role: "img", "aria-label": "Verified", className: "size-3" },
      { className: "size-5", strokeWidth: 1.5, "data-x": "1" },
    ];
    for (const [name, icon] of ours) {
      const source = (lucide as unknown as Record<string, unknown>)[name];
      expect(source, name).toBeDefined();
      for (const props of cases) expect(draw(icon, props), `${name} ${JSON.stringify(props)}`).toBe(draw(source, props));
    }
    expect(draw(icons.Mail, {})).toContain('aria-hidden="true"');
    expect(draw(icons.Mail, { "aria-label": "E-mail" })).not.toContain("aria-hidden");
  });

  it("are the only way a page draws one: lucide-react imported elsewhere in app/ is refused", async () => {
    const code = `import { Mail } from "lucide-react";\nexport const icon = Mail;\n`;
    const refusals = (filePath: string) => lintRefusals(code, filePath, "app/components/icons.tsx");
    expect(await refusals("app/features/leads/throwaway.tsx")).toBe(1);
    expect(await refusals("app/routes/throwaway.tsx")).toBe(1);
    expect(await refusals("app/components/icons.tsx")).toBe(0);
  }, 60_000);
});
