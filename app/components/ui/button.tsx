import * as React from "react";
import { cva, type VariantProps } from "class-variance-authority";
import { Slot } from "./slot.tsx";

/** Each part is a class of app.css (its components layer): one word in the page instead of a list. */
const variantClasses = cva("button", {
  variants: {
    variant: {
      default: "button-default",
      destructive: "button-destructive",
      outline: "button-outline",
      secondary: "button-secondary",
      ghost: "button-ghost",
      link: "button-link",
    },
    size: {
      default: "button-size-default",
      sm: "button-size-sm",
      lg: "button-size-lg",
      icon: "button-size-icon",
    },
  },
  defaultVariants: {
    variant: "default",
    size: "default",
  },
});

type ButtonVariants = VariantProps<typeof variantClasses>;
/** By variant, then size (not one key made of both: a string built and hashed at each call). */
const made = new Map<ButtonVariants["variant"], Map<ButtonVariants["size"], string>>();

/**
 * A button's classes: cva's for the variant and size, worked out once for each pair (cva walks
 * its variants with Object.keys, Object.entries and clsx at every call, and a list page draws
 * dozens of buttons), then `className` after them, as cva joins it.
 */
export function buttonVariants({ variant, size, className }: ButtonVariants & { className?: string } = {}): string {
  let sizes = made.get(variant);
  if (sizes === undefined) made.set(variant, (sizes = new Map()));
  let classes = sizes.get(size);
  if (classes === undefined) sizes.set(size, (classes = variantClasses({ variant, size })));
  return className ? `${classes} ${className}` : classes;
}

export function Button({
  className,
  variant,
  size,
  asChild = false,
  ...props
}: React.ComponentProps<"button"> &
  ButtonVariants & {
    asChild?: boolean;
  }) {
  const Comp = asChild ? Slot : "button";
  return (
    <Comp
      data-slot="button"
      className={buttonVariants({ variant, size, className })}
      {...props}
    />
  );
}
