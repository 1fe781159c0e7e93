import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { shellChunks } from "./server/web/client-chunks.ts";

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [tailwindcss(), reactRouter()],
  // The client build's shared files in two chunks (server/web/client-chunks.ts). Only the
  // modules named go into them: Rollup would otherwise pull in every module they import that no
  // other manual chunk holds, a whole icon set behind one icon's index.
  build: isSsrBuild ? {} : { rollupOptions: { output: { manualChunks: shellChunks(), onlyExplicitManualChunks: true } } },
}));
