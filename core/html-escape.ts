/**
 * React's escaping of text and attribute values (react-dom's escapeTextForBrowser), for markup we
 * write ourselves beside React's: an icon's shapes (app/components/icons.tsx), the web addresses
 * put back into a rendered e-mail (server/mail/render.tsx).
 */
const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
