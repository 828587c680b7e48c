// Folder picker helpers: paths shown with "~" for the home folder, and
// the query that lists a picked folder's children.

/** tilde shows p relative to home as "~/…" (p itself when outside it). */
export function tilde(p: string, home: string): string {
  if (!home || home === "/") return p;
  const h = home.replace(/\/+$/, "");
  if (p === h) return "~";
  if (p.startsWith(h + "/")) return "~" + p.slice(h.length);
  return p;
}

/** childrenQuery is the picker query that lists the folders inside p. */
export function childrenQuery(p: string): string {
  return p.endsWith("/") ? p : p + "/";
}

/** folderName is a folder's own name, "~" or "/" for those. */
export function folderName(p: string): string {
  const parts = p.split("/").filter(Boolean);
  return parts[parts.length - 1] ?? (p.startsWith("/") ? "/" : p);
}
