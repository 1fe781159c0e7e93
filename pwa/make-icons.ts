/**
 * `npm run icons`: the app's icons (the web app manifest's, Apple's touch icon) drawn from the
 * one source image, public/favicon.svg, into public/. Run it after changing the favicon and
 * commit what it writes (tests/unit/app-icons.test.ts checks that the icons match it).
 *
 * A maskable icon may be cut to any shape inside its square: its mark sits within the middle
 * 80 % (the safe zone), on the mark's own background colour to the edges.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { appIcons } from "./icons.ts";

const publicDir = path.join(import.meta.dirname, "..", "public");
for (const icon of await appIcons(publicDir)) {
  writeFileSync(path.join(publicDir, icon.file), icon.png);
  console.log(`wrote public/${icon.file}`);
}
