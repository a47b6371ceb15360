// Parse Mermaid text from stdin with the real Mermaid parser; exit 1 with its message if it
// rejects the text. mermaid.parse needs a DOM (DOMPurify), which jsdom provides. jsdom is pinned
// to 26, the last release that runs on Debian 12's Node 18 (tested there and on Node 20).
import { readFileSync } from "node:fs";
import { JSDOM } from "jsdom";

const dom = new JSDOM("<!DOCTYPE html><html><body></body></html>");
globalThis.window = dom.window;
globalThis.document = dom.window.document;
globalThis.DOMParser = dom.window.DOMParser;
globalThis.Element = dom.window.Element;

const { default: mermaid } = await import("mermaid");
mermaid.initialize({ startOnLoad: false, securityLevel: "strict" });
const text = readFileSync(0, "utf8");
try {
  const result = await mermaid.parse(text);
  const diagram = await mermaid.mermaidAPI.getDiagramFromText(text);
  const db = diagram.db;
  const vertices = db.getVertices ? [...db.getVertices().values()].map((v) => v.text) : [];
  const edges = db.getEdges ? db.getEdges().length : 0;
  const subgraphs = db.getSubGraphs ? db.getSubGraphs().map((s) => s.title) : [];
  console.log(JSON.stringify({ type: result.diagramType, vertices, edges, subgraphs }));
} catch (error) {
  console.error(String(error && error.message ? error.message : error));
  process.exit(1);
}
