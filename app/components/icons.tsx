/**
 * The app's icons: lucide's drawings, each made once into an `<svg>` whose shapes are written
 * once, as its inner HTML, with lucide's look from app.css's `.lucide` (issue 52). lucide-react's
 * own components redo that work on every render (two forwardRefs, its context, the attributes
 * rebuilt and the class list split and merged): 30 of them cost a server render four times what
 * the same markup costs this way, and /my-leads draws 35. The shapes and classes are
 * lucide-react's (tests/unit/icons.test.ts draws each icon both ways); pages import icons from
 * here only (eslint.config.js).
 */
import { createElement, type ReactElement, type SVGProps } from "react";
import * as lucide from "lucide-react";
import type { LucideIcon } from "lucide-react";
import { escapeHtml } from "#core/html-escape.ts";

/** No size, fill or stroke of its own: those are app.css's `.lucide` and the classes passed in. */
export type IconProps = Omit<SVGProps<SVGSVGElement>, "ref" | "width" | "height" | "fill" | "stroke" | "strokeWidth" | "strokeLinecap" | "strokeLinejoin">;
export type IconType = (props: IconProps) => ReactElement;

/**
 * The one attribute of lucide's `<svg>` that drawing needs; the rest of its defaults (width and
 * height 24, no fill, the current colour's 2px round stroke; xmlns, which HTML does not need) are
 * the `.lucide` rule of app.css, once for every icon instead of eight attributes on each (a
 * class passed in, such as `size-4` or `fill-primary`, wins over it: it is a utility).
 */
const SVG_ATTRIBUTES = { viewBox: "0 0 24 24" } as const;

type IconNode = Array<[string, Record<string, unknown>]>;
interface IconData {
  name: string;
  node: IconNode;
  aliases?: string[];
}

/**
 * lucide's drawing of `source`: its component renders lucide-react's `Icon` with the drawing as
 * the `icon` prop (lucide-react 1.x). Read once, at start; a lucide-react that no longer does
 * so fails here, at start, and in tests/unit/icons.test.ts.
 */
function drawingOf(source: LucideIcon): IconData {
  const render = (source as unknown as { render?: (props: object, ref: null) => { props?: { icon?: IconData } } }).render;
  const icon = render?.({}, null).props?.icon;
  if (!icon?.name || !Array.isArray(icon.node)) throw new Error(`icons: lucide-react no longer gives ${source.displayName ?? "an icon"}'s drawing`);
  return icon;
}

/** Whether the props name the icon to assistive technology (lucide's hasA11yProp): else it is hidden from it. */
function named(props: IconProps): boolean {
  for (const key in props) {
    if ((key.startsWith("aria-") || key === "role" || key === "title") && props[key as keyof IconProps] != null) return true;
  }
  return false;
}

/**
 * The drawing's shapes as the markup React writes for them (lucide's attributes are plain SVG
 * names: `d`, `cx`, `points`...), set as the `<svg>`'s inner HTML: one element a render instead
 * of two to six (an icon's shapes never change; /my-leads draws 35 icons).
 */
function markupOf(node: IconNode): { __html: string } {
  const shape = ([tag, attributes]: IconNode[number]) => {
    const written = Object.entries(attributes).filter(([name]) => name !== "key");
    return `<${tag}${written.map(([name, value]) => ` ${name}="${escapeHtml(String(value))}"`).join("")}></${tag}>`;
  };
  return { __html: node.map(shape).join("") };
}

/** `source` drawn the same way, with its `<svg>`'s shapes and default classes made once. */
function icon(source: LucideIcon): IconType {
  const { name, node, aliases = [] } = drawingOf(source);
  const classes = ["lucide", `lucide-${name}`, ...aliases.filter((alias) => alias.trim() !== "").map((alias) => `lucide-${alias}`)].join(" ");
  const shapes = markupOf(node);
  // The `<svg>`'s props by assignment, in the order the markup has them (viewBox, class,
  // aria-hidden, the rest): never `{ ...a, b }`, which makes a new hidden class at each call
  // (decision 0066), and a page draws dozens of icons.
  const Icon = (props: IconProps) => {
    const svg: Record<string, unknown> = { viewBox: SVG_ATTRIBUTES.viewBox, className: props.className ? `${classes} ${props.className}` : classes };
    if (!named(props)) svg["aria-hidden"] = "true";
    for (const key in props) if (key !== "className") svg[key] = props[key as keyof IconProps];
    svg.dangerouslySetInnerHTML = shapes;
    return createElement("svg", svg);
  };
  Icon.displayName = source.displayName;
  return Icon;
}

export const ArrowLeft = icon(lucide.ArrowLeft);
export const BadgeCheck = icon(lucide.BadgeCheck);
export const Bell = icon(lucide.Bell);
export const Briefcase = icon(lucide.Briefcase);
export const CalendarCheck = icon(lucide.CalendarCheck);
export const CalendarClock = icon(lucide.CalendarClock);
export const CalendarDays = icon(lucide.CalendarDays);
export const Check = icon(lucide.Check);
export const CheckCircle2 = icon(lucide.CheckCircle2);
export const ChevronDown = icon(lucide.ChevronDown);
export const ChevronLeft = icon(lucide.ChevronLeft);
export const ChevronRight = icon(lucide.ChevronRight);
export const Circle = icon(lucide.Circle);
export const CircleCheck = icon(lucide.CircleCheck);
export const CircleHelp = icon(lucide.CircleHelp);
export const ClipboardList = icon(lucide.ClipboardList);
export const Clock = icon(lucide.Clock);
export const ExternalLink = icon(lucide.ExternalLink);
export const Eye = icon(lucide.Eye);
export const EyeOff = icon(lucide.EyeOff);
export const FileText = icon(lucide.FileText);
export const Hammer = icon(lucide.Hammer);
export const HandCoins = icon(lucide.HandCoins);
export const Lock = icon(lucide.Lock);
export const Mail = icon(lucide.Mail);
export const MapPin = icon(lucide.MapPin);
export const Menu = icon(lucide.Menu);
export const MessageCircle = icon(lucide.MessageCircle);
export const MessageCircleReply = icon(lucide.MessageCircleReply);
export const MessageSquareText = icon(lucide.MessageSquareText);
export const MoreHorizontal = icon(lucide.MoreHorizontal);
export const MoreVertical = icon(lucide.MoreVertical);
export const Paperclip = icon(lucide.Paperclip);
export const Phone = icon(lucide.Phone);
export const Plus = icon(lucide.Plus);
export const ReceiptText = icon(lucide.ReceiptText);
export const Search = icon(lucide.Search);
export const Send = icon(lucide.Send);
export const ShieldCheck = icon(lucide.ShieldCheck);
export const Sparkles = icon(lucide.Sparkles);
export const Star = icon(lucide.Star);
export const Trash2 = icon(lucide.Trash2);
export const Users = icon(lucide.Users);
export const X = icon(lucide.X);
