// Small DOM helpers shared by the widgets, the exercises and Run on chapter blocks.

// element("button", {type: "button"}, "Run") -> <button type="button">Run</button>.
// Children are nodes or strings (an empty string adds nothing, so CSS :empty still holds);
// the attribute "text" sets the text instead.
export function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  node.append(...children.filter((child) => child !== ""));
  return node;
}

// Adds <link rel="stylesheet" href> to the page once.
export function loadStylesheet(href) {
  if (document.querySelector(`link[href="${href}"]`)) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  document.head.append(link);
}
