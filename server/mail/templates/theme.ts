/**
 * The product's look for e-mail (app/app.css's light theme, as hex: mail clients know no
 * oklch nor CSS variables), and the system font stack the site uses.
 */
export const emailTheme = {
  background: "#f6f4f2", // --muted
  card: "#ffffff",
  foreground: "#1c1714", // --foreground
  muted: "#68625e", // --muted-foreground
  border: "#e6e1dc", // --border
  primary: "#fc9f30", // --primary
  primaryForeground: "#21110a", // --primary-foreground
  primaryStrong: "#a55115", // --primary-strong: brand-coloured text and links
  radius: "10px", // --radius
  font: 'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
} as const;
