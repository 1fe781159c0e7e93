/**
 * app/components/ui/slot.tsx (decision 0066): `asChild` of Button and Badge renders its child
 * with the component's props merged in, as Radix's Slot did: the same HTML, the child's props
 * winning, classes joined, styles merged, both handlers run (the child's first) and both refs set.
 */
import { createElement as h, createRef, type ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { Slot as RadixSlot } from "radix-ui";
import { describe, expect, it } from "vitest";
import { Badge } from "../../app/components/ui/badge.tsx";
import { Button } from "../../app/components/ui/button.tsx";
import { Slot } from "../../app/components/ui/slot.tsx";

type Props = Record<string, unknown>;
const merged = (slotProps: Props, child: ReactElement) => (Slot({ ...slotProps, children: child }) as ReactElement<Props>).props;

describe("Slot", () => {
  it("renders Button and Badge asChild as Radix's Slot did, byte for byte", () => {
    const cases = [
      { className: "extra", "data-slot": "button", children: h("a", { href: "/messages/1", className: "mine" }, "Message") },
      { className: "a b", id: "ours", "aria-label": "Ours", children: h("a", { href: "/x", id: "theirs", style: { margin: 0 } }, "X") },
      { style: { color: "red" }, children: h("label", { htmlFor: "f", style: { margin: 0 } }, "Upload") },
    ];
    for (const props of cases) {
      expect(renderToString(h(Slot, props))).toBe(renderToString(h(RadixSlot.Slot, props)));
    }
    expect(renderToString(h(Button, { asChild: true, variant: "outline" }, h("a", { href: "/messages/1" }, "Message")))).toBe(
      '<a href="/messages/1" data-slot="button" class="button button-outline button-size-default">Message</a>',
    );
    expect(renderToString(h(Badge, { asChild: true }, h("a", { href: "/b" }, "New")))).toBe('<a href="/b" data-slot="badge" class="badge badge-default">New</a>');
  });

  it("lets the child's own props win, and joins classes with the slot's first", () => {
    const props = merged({ id: "ours", title: "ours", className: "button" }, h("a", { id: "theirs", className: "link" }));
    expect(props).toMatchObject({ id: "theirs", title: "ours", className: "button link" });
  });

  it("runs both handlers, the child's first, and returns the child's result", () => {
    const calls: string[] = [];
    const props = merged(
      { onClick: (e: string) => calls.push(`slot ${e}`) },
      h("a", { onClick: (e: string) => (calls.push(`child ${e}`), "child's") }),
    );
    expect((props.onClick as (e: string) => unknown)("click")).toBe("child's");
    expect(calls).toEqual(["child click", "slot click"]);
    const onlyOurs = () => "ours";
    const ref = createRef<unknown>();
    const kept = merged({ onClick: onlyOurs, ref }, h("a", { onClick: undefined, ref: undefined }));
    expect([kept.onClick, kept.ref]).toEqual([onlyOurs, ref]);
    expect(merged({}, h("a", { onClick: onlyOurs })).onClick).toBe(onlyOurs);
  });

  it("merges styles and sets both refs", () => {
    const ours = createRef<unknown>();
    let theirs: unknown = null;
    const props = merged({ style: { color: "red", margin: 1 }, ref: ours }, h("a", { style: { margin: 0 }, ref: (node: unknown) => (theirs = node) }));
    expect(props.style).toEqual({ color: "red", margin: 0 });
    (props.ref as (node: unknown) => void)("node");
    expect([ours.current, theirs]).toEqual(["node", "node"]);
  });

  it("keeps the child's children, and needs exactly one element", () => {
    expect(renderToString(h(Slot, { className: "c" }, h("span", null, "inner")))).toBe('<span class="c">inner</span>');
    expect(() => Slot({ children: "text" })).toThrow(/single React element/);
    expect(() => Slot({ children: [h("a", { key: 1 }), h("a", { key: 2 })] })).toThrow();
  });
});
