/**
 * The app's icons: lucide's drawings, each made once into an `<svg>` whose children are made
 * once (issue 52). lucide-react's own components redo that work on every render (two
 * forwardRefs, its context, the attributes rebuilt and the class list split and merged): 30 of
 * them cost a server render four times what the same markup costs this way, and /my-leads
 * draws 30. The markup is lucide-react's, attribute for attribute
 * (tests/unit/icons.test.ts renders each icon both ways); pages import icons from here only
 * (eslint.config.js).
 */
import { createElement, type ReactElement, type SVGProps } from "react";
import * as lucide from "lucide-react";
import type { LucideIcon } from "lucide-react";

export type IconProps = Omit<SVGProps<SVGSVGElement>, "ref">;
export type IconType = (props: IconProps) => ReactElement;

/** lucide's attributes of every `<svg>`, in its order (its defaultAttributes, named as React names them). */
const SVG_ATTRIBUTES = {
  xmlns: "http://www.w3.org/2000/svg",
  width: 24,
  height: 24,
  viewBox: "0 0 24 24",
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 2,
  strokeLinecap: "round",
  strokeLinejoin: "round",
} as const;

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

/** `source` drawn the same way, with its `<svg>`'s children and default classes made once. */
function icon(source: LucideIcon): IconType {
  const { name, node, aliases = [] } = drawingOf(source);
  const classes = ["lucide", `lucide-${name}`, ...aliases.filter((alias) => alias.trim() !== "").map((alias) => `lucide-${alias}`)].join(" ");
  const children = node.map(([tag, attributes]) => createElement(tag, attributes));
  const Icon = ({ className, ...props }: IconProps) =>
    createElement(
      "svg",
      { ...SVG_ATTRIBUTES, className: className ? `${classes} ${className}` : classes, ...(named(props) ? null : { "aria-hidden": "true" }), ...props },
      children,
    );
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
