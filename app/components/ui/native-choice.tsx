import * as React from "react";
import { Check, Circle } from "#app/components/icons.tsx";

import { cn } from "#app/lib/cn.ts";

/*
 * A styled native checkbox and radio button, drawn like ui/checkbox.tsx and ui/radio-group.tsx.
 * They work in plain HTML forms and before hydration, and load no Radix code: for public pages
 * within the first-visit budget (docs/decisions/0050). All props are forwarded to the <input>.
 */

type ChoiceProps = Omit<React.ComponentProps<"input">, "type">;

/** The mark (shown while checked) sits over the input, which keeps its role, label and events. */
const mark = "pointer-events-none absolute top-1/2 left-1/2 hidden -translate-x-1/2 -translate-y-1/2 peer-checked:block";

export function NativeCheckbox(props: ChoiceProps) {
  return (
    <NativeChoice type="checkbox" shape="native-checkbox" {...props}>
      <Check aria-hidden="true" className={cn(mark, "size-3.5 text-primary-foreground")} />
    </NativeChoice>
  );
}

export function NativeRadio(props: ChoiceProps) {
  return (
    <NativeChoice type="radio" shape="native-radio" {...props}>
      <Circle aria-hidden="true" className={cn(mark, "size-2 fill-primary-strong text-primary-strong")} />
    </NativeChoice>
  );
}

function NativeChoice({ type, shape, className, children, ...props }: ChoiceProps & { type: "checkbox" | "radio"; shape: string }) {
  return (
    <span data-slot={`native-${type}-wrapper`} className="relative inline-flex size-4 shrink-0">
      <input
        type={type}
        data-slot={`native-${type}`}
        className={cn("peer native-choice", shape, className)}
        {...props}
      />
      {children}
    </span>
  );
}
