/**
 * The one frame of every e-mail's HTML part: the product's name, a white card with the
 * heading and body, and a footer (with the one-click unsubscribe on promotional e-mail).
 * One column at most 560 px wide, so it reads on a phone without zooming.
 */
import { Body, Container, Head, Heading, Hr, Html, Link, Preview, Section, Text } from "@react-email/components";
import type { ReactNode } from "react";
import { PRODUCT_NAME } from "#core/product.ts";
import { emailTheme as t } from "./theme.ts";

export interface EmailLayoutProps {
  heading: string;
  /** The line mail apps show beside the subject. */
  preview?: string;
  publicUrl: string;
  /** Promotional e-mail only: the signed one-click unsubscribe address. */
  unsubscribeUrl?: string | null;
  children: ReactNode;
}

export const UNSUBSCRIBE_TEXT = "You receive this because promotional e-mail is on for your Digs & Gigs account. Unsubscribe with one click:";

export function EmailLayout({ heading, preview, publicUrl, unsubscribeUrl, children }: EmailLayoutProps) {
  return (
    <Html lang="en">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      {preview ? <Preview>{preview}</Preview> : null}
      <Body style={{ backgroundColor: t.background, fontFamily: t.font, color: t.foreground, margin: 0, padding: "24px 0" }}>
        <Container style={{ maxWidth: "560px", width: "100%", padding: "0 12px" }}>
          <Section style={{ padding: "0 8px 16px" }}>
            <Link href={publicUrl} style={{ color: t.foreground, fontSize: "20px", fontWeight: 700, textDecoration: "none", letterSpacing: "-0.01em" }}>
              <span style={{ display: "inline-block", width: "12px", height: "12px", borderRadius: "3px", backgroundColor: t.primary, marginRight: "8px" }} />
              {PRODUCT_NAME}
            </Link>
          </Section>
          <Section
            style={{
              backgroundColor: t.card,
              border: `1px solid ${t.border}`,
              borderRadius: t.radius,
              borderTop: `4px solid ${t.primary}`,
              padding: "24px 24px 8px",
            }}
          >
            <Heading as="h1" style={{ fontSize: "22px", lineHeight: "28px", fontWeight: 700, margin: "0 0 16px", color: t.foreground }}>
              {heading}
            </Heading>
            {children}
          </Section>
          <Section style={{ padding: "16px 8px 0" }}>
            {unsubscribeUrl ? (
              <>
                <Hr style={{ borderColor: t.border, margin: "0 0 12px" }} />
                <Text style={footerStyle}>
                  {UNSUBSCRIBE_TEXT}{" "}
                  <Link href={unsubscribeUrl} style={{ color: t.primaryStrong, textDecoration: "underline" }}>
                    Unsubscribe
                  </Link>
                </Text>
              </>
            ) : null}
            <Text style={footerStyle}>
              {PRODUCT_NAME} · <Link href={publicUrl} style={{ color: t.muted, textDecoration: "underline" }}>{publicUrl.replace(/^https?:\/\//, "")}</Link>
            </Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

const footerStyle = { fontSize: "12px", lineHeight: "18px", color: t.muted, margin: "0 0 8px" } as const;

/** Body text: 16 px on a phone's screen. */
export const paragraphStyle = { fontSize: "16px", lineHeight: "24px", margin: "0 0 16px", color: t.foreground } as const;
export const linkStyle = { color: t.primaryStrong, textDecoration: "underline", wordBreak: "break-all" } as const;

/** The call to action: the site's primary button. */
export function EmailButton({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Section style={{ margin: "4px 0 20px" }}>
      <Link
        href={href}
        style={{
          display: "inline-block",
          backgroundColor: t.primary,
          color: t.primaryForeground,
          fontSize: "16px",
          fontWeight: 600,
          lineHeight: "20px",
          padding: "12px 20px",
          borderRadius: "8px",
          textDecoration: "none",
        }}
      >
        {children}
      </Link>
    </Section>
  );
}
