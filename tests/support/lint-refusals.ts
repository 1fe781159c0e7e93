/**
 * How many of ESLint's messages for `code`, linted as if at `filePath` with the project's own
 * configuration, contain `message`: a lint rule's test (eslint.config.js) without a file on disk.
 */
import path from "node:path";
import { ESLint } from "eslint";

const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, "../..") });

export async function lintRefusals(code: string, filePath: string, message: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.message.includes(message)).length;
}
