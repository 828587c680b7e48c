// The service worker is built apart from the app: one classic script,
// sw.js at the root of dist/ (so its scope is the whole app), with no
// content hash (browsers look for it by name) and nothing shared with the
// app's chunks (a classic worker cannot import them).
import { defineConfig } from "vite";

export default defineConfig({
  publicDir: false,
  build: {
    target: "es2022",
    outDir: "dist",
    emptyOutDir: false,
    minify: process.env.NOMINIFY ? false : "oxc",
    lib: {
      entry: "src/sw/sw.ts",
      formats: ["iife"],
      name: "labServiceWorker",
      fileName: () => "sw.js",
    },
  },
});
