// One lint configuration for every TypeScript workspace; each runs `eslint src --max-warnings 0`
// from its own directory (`npm run lint` runs them all through turbo).
import eslint from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["**/dist/**", "**/gen/**", "**/node_modules/**"] },
  eslint.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: globals.node,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Leaving out a field by destructuring it into `_name` (or beside a ...rest) is deliberate.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      // Async methods without await implement Promise-returning interfaces (providers, buses,
      // stores, stop/close), where a throw must become a rejection rather than a synchronous throw.
      "@typescript-eslint/require-await": "off",
      // A `let` read by a closure before its one assignment (a service wired to a later part) stays `let`.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
      // Passing on a caught `unknown` unchanged is how a failure travels on; what is made new is an Error.
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allowThrowingUnknown: true }],
    },
  },
  {
    // A route handler's input is typed by its operation in the OpenAPI document (gateway/src/openapi/
    // operation-types.ts) and true once the request validator passed it: a cast there would only hide
    // a handler drifting from its contract.
    files: ["gateway/src/routes/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "TSAsExpression:has(Identifier[name=/^(params|query|body|input)$/])",
          message: "Request data is typed by its operation (OperationInput); read it without a cast.",
        },
      ],
    },
  },
  {
    // Tests and their support files are outside each package's build tsconfig; `tsc -p
    // tsconfig.test.json` type-checks them in the package's lint, and here they get the rules that
    // need no type information: they read JSON response bodies as `any` on purpose, asserting on
    // them field by field.
    files: ["**/*.test.ts", "**/test-support/**", "**/*.mjs"],
    extends: [tseslint.configs.disableTypeChecked],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
