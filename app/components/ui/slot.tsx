import { Children, cloneElement, type ReactElement, type ReactNode, type Ref } from "react";

type Props = Record<string, unknown>;

/**
 * `asChild` of Button and Badge: renders its one child element with these props merged in, as
 * Radix's Slot does. The child's own props win, except that classes are joined (these first),
 * styles merged, event handlers both run (the child's first) and refs both set.
 *
 * The merged props are built by assignment, never as `{ ...a, b }` (decision 0066): on Node 20's
 * V8, an object literal that starts with a spread and then adds properties gets a new hidden
 * class every time, and such objects live through young-generation collections. Radix's Slot
 * merges that way, and a list page renders it dozens of times a request.
 */
export function Slot(props: { children?: ReactNode } & Props) {
  // React's own check: exactly one element, or it throws.
  const child = Children.only(props.children) as ReactElement<Props>;
  const merged: Props = {};
  for (const name in props) if (name !== "children") merged[name] = props[name];
  const own = child.props;
  for (const name in own) {
    if (name === "children") continue;
    const theirs = own[name];
    const ours = merged[name];
    if (name === "className") merged[name] = [ours, theirs].filter(Boolean).join(" ");
    else if (name === "style") merged[name] = Object.assign({}, ours, theirs);
    else if (name === "ref") merged[name] = ours && theirs ? bothRefs(ours as Ref<unknown>, theirs as Ref<unknown>) : (theirs ?? ours);
    else if (/^on[A-Z]/.test(name)) {
      // As Radix: both when both are set, else ours even against the child's `undefined`.
      merged[name] =
        typeof ours === "function" && typeof theirs === "function"
          ? (...args: unknown[]) => {
              const result: unknown = theirs(...args);
              ours(...args);
              return result;
            }
          : ours || theirs;
    } else merged[name] = theirs;
  }
  return cloneElement(child, merged);
}

function bothRefs(a: Ref<unknown>, b: Ref<unknown>) {
  return (node: unknown) => {
    for (const ref of [a, b]) {
      if (typeof ref === "function") ref(node);
      else if (ref) ref.current = node;
    }
  };
}
