/**
 * A richer body for an event's e-mail: an opening sentence, facts as label and value, an
 * optional quote of what someone wrote (shown as text, its links never made into buttons),
 * a highlighted note (a deadline) and the button to where the action is.
 */
import { Section, Text } from "@react-email/components";
import { EmailButton, paragraphStyle } from "./layout.tsx";
import { emailTheme as t } from "./theme.ts";

export interface NoticeEmailProps {
  intro: string;
  facts?: Array<[label: string, value: string]>;
  quote?: string;
  note?: string;
  action: { label: string; url: string };
}

export function NoticeEmailBody({ intro, facts = [], quote, note, action }: NoticeEmailProps) {
  return (
    <>
      <Text style={paragraphStyle}>{intro}</Text>
      {facts.length > 0 ? (
        <Section style={{ margin: "0 0 16px" }}>
          {facts.map(([label, value]) => (
            <Text key={label} style={{ ...paragraphStyle, margin: "0 0 4px" }}>
              <span style={{ color: t.muted }}>{label}: </span>
              <strong>{value}</strong>
            </Text>
          ))}
        </Section>
      ) : null}
      {quote ? (
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
          {quote}
        </Text>
      ) : null}
      {note ? <Text style={{ ...paragraphStyle, fontWeight: 600, color: t.primaryStrong }}>{note}</Text> : null}
      <EmailButton href={action.url}>{action.label}</EmailButton>
    </>
  );
}
