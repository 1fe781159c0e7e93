import * as React from "react";
import { Label as LabelPrimitive } from "radix-ui";

import { cn } from "#app/lib/cn.ts";

export function Label({ className, ...props }: React.ComponentProps<typeof LabelPrimitive.Root>) {
  return (
    <LabelPrimitive.Root
      data-slot="label"
      className={cn("label", className)}
      {...props}
    />
  );
}
