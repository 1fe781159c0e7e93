import * as React from "react";
import { Toaster as Sonner, type ToasterProps } from "sonner";

import { cn } from "#app/lib/cn.ts";

export function Toaster({ className, style, ...props }: ToasterProps) {
  return (
    <Sonner
      theme="light"
      richColors
      closeButton
      // Sonner's close button is 20 px: 28 px, so that even a toast scaled down behind another keeps WCAG 2.2's 24 px target (issue 47).
      toastOptions={{ classNames: { closeButton: "size-7!" } }}
      className={cn("toaster group", className)}
      style={
        {
          "--normal-bg": "var(--popover)",
          "--normal-text": "var(--popover-foreground)",
          "--normal-border": "var(--border)",
          // Sonner's rich colours are too light as text (under WCAG AA's 4.5:1): darker shades.
          "--success-text": "#05612a",
          "--info-text": "#0a4f9e",
          "--warning-text": "#7a4300",
          "--error-text": "#a30000",
          ...style,
        } as React.CSSProperties
      }
      {...props}
    />
  );
}
