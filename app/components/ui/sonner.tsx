import * as React from "react";
import { Toaster as Sonner, type ToasterProps } from "sonner";

import { cn } from "#app/lib/cn.ts";

export function Toaster({ className, style, ...props }: ToasterProps) {
  return (
    <Sonner
      theme="light"
      richColors
      closeButton
      className={cn("toaster group", className)}
      style={
        {
          "--normal-bg": "var(--popover)",
          "--normal-text": "var(--popover-foreground)",
          "--normal-border": "var(--border)",
          ...style,
        } as React.CSSProperties
      }
      {...props}
    />
  );
}
