/**
 * deploy/Dockerfile and .dockerignore as Docker's own tooling reads them: dockerfile-ast (the
 * parser behind the Dockerfile language server) for instructions and stages, and
 * @balena/dockerignore (Docker's matching rules) for the build context.
 */
import dockerignore from "@balena/dockerignore";
import { DockerfileParser, JSONInstruction, PropertyInstruction, type Copy, type From, type Instruction } from "dockerfile-ast";
import { readRepoFile } from "./conventions.js";

export interface Stage {
  index: number;
  /** The name after AS, if any. */
  name?: string;
  /** The FROM image, or an earlier stage's name. */
  base: string;
  /** The base image's tag and digest as Docker reads the reference (null when it has none). */
  tag: string | null;
  digest: string | null;
  /** The instructions after FROM, up to the next FROM. */
  instructions: Instruction[];
}

/** A Dockerfile's build stages, in order. */
export function stagesOf(text: string): Stage[] {
  const stages: Stage[] = [];
  for (const instruction of DockerfileParser.parse(text).getInstructions()) {
    if (instruction.getKeyword() === "FROM") {
      const from = instruction as From;
      stages.push({ index: stages.length, name: from.getBuildStage() ?? undefined, base: from.getImage()!, tag: from.getImageTag(), digest: from.getImageDigest(), instructions: [] });
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return stages;
}

export const dockerfileStages = () => stagesOf(readRepoFile("deploy/Dockerfile"));

export const keywordOf = (instruction: Instruction) => instruction.getKeyword();
export const lineOf = (instruction: Instruction) => instruction.getRange().start.line + 1;

/** The stage a COPY takes from (its --from), or undefined when it copies from the build context. */
export const copyFrom = (instruction: Instruction) => (instruction as Copy).getFromFlag?.()?.getValue() ?? undefined;

/** A COPY's sources (every argument but the destination). */
export const copySources = (copy: Instruction) => argumentsOf(copy).slice(0, -1);

/** The arguments after the flags: a JSON array's items, or the shell form's words. */
export function argumentsOf(instruction: Instruction): string[] {
  if (instruction instanceof JSONInstruction && instruction.getJSONStrings().length > 0) {
    return instruction.getJSONStrings().map((item) => item.getJSONValue());
  }
  return instruction.getArguments().map((argument) => argument.getValue());
}

/** ENV's and LABEL's keys and values (quotes removed, variables left as written). */
export function propertiesOf(instruction: Instruction): Record<string, string> {
  if (!(instruction instanceof PropertyInstruction)) throw new Error(`${instruction.getKeyword()} has no properties`);
  return Object.fromEntries(instruction.getProperties().map((property) => [property.getName(), property.getValue() ?? ""]));
}

/** Whether Docker leaves a path (relative to the context root) out of the build context. */
export function ignoredBy(dockerignoreText: string): (path: string) => boolean {
  // The package is CommonJS with `export default` typings; it sets factory.default for this import.
  const rules = dockerignore.default().add(dockerignoreText.split("\n"));
  return (path: string) => rules.ignores(path);
}
