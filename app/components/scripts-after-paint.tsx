/**
 * React Router's `<Scripts>`, started once the page has painted (decision 0080): its module
 * script (the route modules' imports, then the client entry) is written with a type the browser
 * does not run, and its modulepreload links are left out; a small inline script puts both back
 * a frame after the first paint. So the browser asks for no script before it paints: on a slow
 * network the page and its stylesheet have the bandwidth alone, and Lighthouse's simulation
 * (which counts every request that had arrived before the paint it saw) paints with them only.
 * A page in a background tab paints nothing until shown, so there the scripts start at once.
 */
import { Children, cloneElement, Fragment, isValidElement, type ReactElement, type ReactNode } from "react";
import { Scripts } from "react-router";

/** The id and the type of the module script while it waits (tests/unit/scripts-after-paint.test.ts). */
export const WAITING_SCRIPT_ID = "scripts-after-paint";
export const WAITING_SCRIPT_TYPE = "text/x-after-paint";

/**
 * The inline script that starts the waiting one: the preloads into `<head>`, and a copy of the
 * module script in its place (a script the parser wrote with another type never runs; a new
 * element does, and React hydrates it as the one it wrote, attributes aside).
 */
export function startScript(hrefs: string[]): string {
  return `(function(){var d=document,go=function(){var s=d.getElementById(${JSON.stringify(WAITING_SCRIPT_ID)});if(!s)return;${JSON.stringify(hrefs)}.forEach(function(h){var l=d.createElement("link");l.rel="modulepreload";l.href=h;d.head.appendChild(l)});var m=d.createElement("script");m.type="module";m.nonce=s.nonce;m.id=s.id;m.textContent=s.textContent;s.replaceWith(m)};if(d.visibilityState==="hidden")go();else requestAnimationFrame(function(){setTimeout(go)})})();`;
}

/** `<Scripts>`' elements with the module script waiting and the modulepreloads' hrefs taken out. */
export function waitingScripts(node: ReactNode, hrefs: string[]): ReactNode {
  if (!isValidElement(node)) return node;
  const element = node as ReactElement<Record<string, unknown>>;
  if (element.type === Fragment)
    return <Fragment key={element.key}>{Children.map(element.props.children as ReactNode, (child) => waitingScripts(child, hrefs))}</Fragment>;
  if (element.type === "link" && element.props.rel === "modulepreload") {
    hrefs.push(String(element.props.href));
    return null;
  }
  if (element.type === "script" && element.props.type === "module") return cloneElement(element, { type: WAITING_SCRIPT_TYPE, async: undefined, id: WAITING_SCRIPT_ID });
  return element;
}

export function ScriptsAfterPaint({ nonce }: { nonce: string | undefined }) {
  // A plain function component: called here, its hooks are this component's (the same ones on
  // every render). After hydration it renders nothing, as `<Scripts>` does.
  const scripts = Scripts({ nonce });
  if (!scripts) return null;
  const hrefs: string[] = [];
  const waiting = waitingScripts(scripts, hrefs);
  return (
    <>
      {waiting}
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: startScript(hrefs) }} />
    </>
  );
}
