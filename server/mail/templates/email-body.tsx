/**
 * The HTML of every e-mail's body: its parts (../content.ts) in the product's look. Text of
 * any part is a React text node, so whatever it holds (a link, Markdown, HTML) shows as the
 * words it is; the only anchors are the template's actions. The first action is the button
 * (one call to action), later ones plain links.
 */
import { Hr, Link, Section, Text } from "@react-email/components";
import { Fragment } from "react";
import type { EmailContent, EmailPart } from "../content.ts";
import { EmailButton, linkStyle, paragraphStyle } from "./layout.tsx";
import { emailTheme as t } from "./theme.ts";

/** A part's text with its line breaks. */
function Lines({ text }: { text: string }) {
  return text.split("\n").map((line, i) => (
    <Fragment key={i}>
      {i > 0 ? <br /> : null}
      {line}
    </Fragment>
  ));
}

function Part({ part, button }: { part: EmailPart; button: boolean }) {
  switch (part.type) {
    case "paragraph":
      return (
        <Text style={paragraphStyle}>
          <Lines text={part.text} />
        </Text>
      );
    case "quote":
      return (
        <Text
          style={{
            ...paragraphStyle,
            whiteSpace: "pre-wrap",
            backgroundColor: t.background,
            borderLeft: `4px solid ${t.border}`,
            padding: "12px 16px",
            borderRadius: "6px",
          }}
        >
          {part.text}
        </Text>
      );
    case "facts":
      return (
        <Section style={{ margin: "0 0 16px" }}>
          {part.facts.map(([label, value], i) => (
            <Text key={i} style={{ ...paragraphStyle, margin: "0 0 4px" }}>
              <span style={{ color: t.muted }}>{label}: </span>
              <strong>{value}</strong>
            </Text>
          ))}
        </Section>
      );
    case "note":
      return (
        <Text style={{ ...paragraphStyle, fontWeight: 600, color: t.primaryStrong }}>
          <Lines text={part.text} />
        </Text>
      );
    case "divider":
      return <Hr style={{ borderColor: t.border, margin: "8px 0 16px" }} />;
    case "action": {
      const lead = part.say && part.say !== part.label ? `${part.say}:` : null;
      if (!button) {
        return (
          <Text style={paragraphStyle}>
            {lead ? `${lead} ` : null}
            <Link href={part.url} style={linkStyle}>
              {part.label}
            </Link>
          </Text>
        );
      }
      return (
        <>
          {lead ? <Text style={{ ...paragraphStyle, margin: "0 0 8px" }}>{lead}</Text> : null}
          <EmailButton href={part.url}>{part.label}</EmailButton>
        </>
      );
    }
  }
}

export function EmailBody({ content }: { content: EmailContent }) {
  const button = content.findIndex((part) => part.type === "action");
  return content.map((part, i) => <Part key={i} part={part} button={i === button} />);
}
