import js from "@eslint/js";
import tseslint from "typescript-eslint";

// lib/ is the product and must run without Next.js (CLI, tests, scripts): it never imports
// next/*, React or app/. lib/memdir/ is the format and imports nothing else from lib/.
const frameworkImports = [
  { group: ["next", "next/*"], message: "lib/ must not depend on Next.js." },
  { group: ["react", "react/*", "react-dom", "react-dom/*"], message: "lib/ must not depend on React." },
  { group: ["@/app", "@/app/*", "**/app/*"], message: "lib/ must not import from app/." },
];

export default tseslint.config(
  {
    ignores: ["node_modules/", ".next/", "generated/", ".teammem/", "test-results/", "playwright-report/", "next-env.d.ts"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/ban-ts-comment": "error",
      "no-empty": ["error", { allowEmptyCatch: false }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["lib/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: frameworkImports }] },
  },
  {
    files: ["lib/memdir/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            ...frameworkImports,
            { group: ["../*", "@/lib/*", "!../memdir/*"], message: "lib/memdir/ is the format: it imports nothing else from lib/." },
          ],
        },
      ],
    },
  },
  {
    files: ["cli/**/*.mjs", "scripts/**/*.mjs", "*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
  },
);
