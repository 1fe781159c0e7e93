/**
 * The HTML of an e-mail that gives only its text: the text's paragraphs, links and actions
 * (../text-blocks.ts) in the product's layout. Every e-mail gets it unless its sender gives
 * a richer body, so e-mails added with `text` alone have an HTML part too.
 */
import { Hr, Link, Text } from "@react-email/components";
import { Fragment } from "react";
import { textBlocks, type Inline } from "../text-blocks.ts";
import { EmailButton, linkStyle, paragraphStyle } from "./layout.tsx";
import { emailTheme as t } from "./theme.ts";

function Line({ parts }: { parts: Inline[] }) {
  return parts.map((part, i) =>
    part.type === "link" ? (
      <Link key={i} href={part.url} style={linkStyle}>
        {part.url}
      </Link>
    ) : (
      <Fragment key={i}>{part.text}</Fragment>
    ),
  );
}

/** The text's blocks; the first action is the button, later ones plain links (one call to action). */
export function TextEmailBody({ text }: { text: string }) {
  const blocks = textBlocks(text);
  const button = blocks.findIndex((block) => block.type === "action");
  return blocks.map((block, i) => {
    if (block.type === "divider") return <Hr key={i} style={{ borderColor: t.border, margin: "8px 0 16px" }} />;
    if (block.type === "action" && i !== button) {
      return (
        <Text key={i} style={paragraphStyle}>
          {block.lead ? `${block.lead} ` : null}
          <Link href={block.url} style={linkStyle}>
            {block.label}
          </Link>
        </Text>
      );
    }
    if (block.type === "action") {
      return (
        <Fragment key={i}>
          {block.lead ? <Text style={{ ...paragraphStyle, margin: "0 0 8px" }}>{block.lead}</Text> : null}
          <EmailButton href={block.url}>{block.label}</EmailButton>
        </Fragment>
      );
    }
    return (
      <Text key={i} style={paragraphStyle}>
        {block.lines.map((parts, j) => (
          <Fragment key={j}>
            {j > 0 ? <br /> : null}
            <Line parts={parts} />
          </Fragment>
        ))}
      </Text>
    );
  });
}
