/** The syntax tree of the Go text/template subset the chart may use. */

export interface Pos {
  file: string;
  line: number;
}

export type Operand =
  | { kind: "dot" }
  /** .A.b.c evaluated on dot. */
  | { kind: "field"; chain: string[] }
  /** $ or $name, then an optional .field chain. */
  | { kind: "variable"; name: string; chain: string[] }
  | { kind: "string"; value: string }
  /** An integer literal: a Go int. */
  | { kind: "number"; value: bigint }
  | { kind: "bool"; value: boolean }
  | { kind: "nil" }
  /** A function name; only as the first word of a command. */
  | { kind: "function"; name: string }
  | { kind: "pipeline"; pipeline: Pipeline };

export interface Command {
  operands: Operand[];
}

export interface Pipeline {
  pos: Pos;
  /** Variables declared (:=) or assigned (=) by the pipeline. */
  variables: string[];
  assign: boolean;
  commands: Command[];
}

export type Node =
  | { type: "text"; text: string }
  | { type: "action"; pipeline: Pipeline }
  | { type: "if"; pipeline: Pipeline; then: Node[]; otherwise: Node[] }
  | { type: "with"; pipeline: Pipeline; then: Node[]; otherwise: Node[] }
  | { type: "range"; pipeline: Pipeline; then: Node[]; otherwise: Node[] };

export interface ParsedFile {
  /** The file's own output. */
  body: Node[];
  /** {{ define "name" }} blocks found in it. */
  defines: Map<string, Node[]>;
}
