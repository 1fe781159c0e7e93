import { createElement as h, Fragment } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { startScript, waitingScripts, WAITING_SCRIPT_ID, WAITING_SCRIPT_TYPE } from "../../app/components/scripts-after-paint.tsx";

/** `<Scripts>`' shape (React Router 7): modulepreload links, then the context script and the module script. */
const scripts = h(
  Fragment,
  null,
  h("link", { rel: "modulepreload", href: "/assets/manifest-1.js", nonce: "n" }),
  h("link", { rel: "modulepreload", href: "/assets/entry.client-2.js", nonce: "n" }),
  [h("link", { key: "/assets/root-3.js", rel: "modulepreload", href: "/assets/root-3.js", nonce: "n" })],
  h(
    Fragment,
    null,
    h("script", { nonce: "n", dangerouslySetInnerHTML: { __html: "window.__reactRouterContext = {};" } }),
    h("script", { nonce: "n", type: "module", async: true, dangerouslySetInnerHTML: { __html: 'import * as route0 from "/assets/root-3.js";' } }),
  ),
);

interface FakeElement {
  id?: string;
  type?: string;
  rel?: string;
  href?: string;
  nonce?: string;
  textContent?: string;
  replacedBy?: FakeElement;
  replaceWith?: (element: FakeElement) => void;
}

/** The start script run against a fake document: what it appended and put in the waiting script's place. */
function runStart(visibilityState: "visible" | "hidden") {
  const waiting: FakeElement = { id: WAITING_SCRIPT_ID, type: WAITING_SCRIPT_TYPE, nonce: "n", textContent: 'import "/assets/root-3.js";' };
  waiting.replaceWith = (element) => (waiting.replacedBy = element);
  const head: FakeElement[] = [];
  const frames: Array<() => void> = [];
  const timers: Array<() => void> = [];
  const document = {
    visibilityState,
    head: { appendChild: (element: FakeElement) => head.push(element) },
    getElementById: (id: string) => (id === WAITING_SCRIPT_ID ? waiting : null),
    createElement: (): FakeElement => ({}),
  };
  new Function("document", "requestAnimationFrame", "setTimeout", startScript(["/assets/entry.client-2.js", "/assets/root-3.js"]))(
    document,
    (callback: () => void) => frames.push(callback),
    (callback: () => void) => timers.push(callback),
  );
  return { waiting, head, frames, timers };
}

describe("React Router's scripts started after the first paint (app/components/scripts-after-paint.tsx)", () => {
  it("writes the module script with a type the browser does not run, and no modulepreload link", () => {
    const hrefs: string[] = [];
    const html = renderToStaticMarkup(h(Fragment, null, waitingScripts(scripts, hrefs)));
    expect(html).not.toContain("modulepreload");
    expect(html).toContain(`<script nonce="n" type="${WAITING_SCRIPT_TYPE}" id="${WAITING_SCRIPT_ID}">import * as route0 from "/assets/root-3.js";</script>`);
    expect(html).toContain("<script nonce=\"n\">window.__reactRouterContext = {};</script>");
    expect(hrefs).toEqual(["/assets/manifest-1.js", "/assets/entry.client-2.js", "/assets/root-3.js"]);
  });

  it("starts it a frame after the paint: the preloads into <head>, a module script with its text and nonce in its place", () => {
    const { waiting, head, frames, timers } = runStart("visible");
    expect(waiting.replacedBy).toBeUndefined();
    expect(frames).toHaveLength(1);
    frames[0]!();
    expect(waiting.replacedBy).toBeUndefined();
    timers[0]!();
    expect(head.map((link) => [link.rel, link.href])).toEqual([
      ["modulepreload", "/assets/entry.client-2.js"],
      ["modulepreload", "/assets/root-3.js"],
    ]);
    expect(waiting.replacedBy).toEqual({ type: "module", nonce: "n", id: WAITING_SCRIPT_ID, textContent: 'import "/assets/root-3.js";' });
  });

  it("starts it at once in a background tab, which paints nothing until shown", () => {
    const { waiting, frames } = runStart("hidden");
    expect(frames).toHaveLength(0);
    expect(waiting.replacedBy?.type).toBe("module");
  });
});
