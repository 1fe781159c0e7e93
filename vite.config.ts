import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { serviceWorker } from "./pwa/build-plugin.ts";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), serviceWorker()],
});
