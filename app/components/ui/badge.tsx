import * as React from "react";
import { cva, type VariantProps } from "class-variance-authority";

import { cn } from "#app/lib/cn.ts";
import { Slot } from "./slot.tsx";

/** Each part is a class of app.css (its components layer). */
const variantClasses = cva("badge", {
  variants: {
    variant: {
      default: "badge-default",
      secondary: "badge-secondary",
      destructive: "badge-destructive",
      outline: "badge-outline",
    },
  },
  defaultVariants: {
    variant: "default",
  },
});

type BadgeVariants = VariantProps<typeof variantClasses>;
const made = new Map<BadgeVariants["variant"], string>();

/** A badge's classes for its variant, worked out once each (as buttonVariants, button.tsx). */
function badgeVariants({ variant }: BadgeVariants = {}): string {
  let classes = made.get(variant);
  if (classes === undefined) made.set(variant, (classes = variantClasses({ variant })));
  return classes;
}

export function Badge({
  className,
  variant,
  asChild = false,
  ...props
}: React.ComponentProps<"span"> & BadgeVariants & { asChild?: boolean }) {
  const Comp = asChild ? Slot : "span";
  return (
    <Comp data-slot="badge" className={cn(badgeVariants({ variant }), className)} {...props} />
  );
}
