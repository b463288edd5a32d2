// Render \(...\) and \[...\] (written by pymdownx.arithmatex, generic mode) with the KaTeX the site serves.
document$.subscribe(({ body }) => {
  renderMathInElement(body, {
    delimiters: [
      { left: "$$", right: "$$", display: true }, // notebook pages keep TeX delimiters as written
      { left: "$", right: "$", display: false },
      { left: "\\(", right: "\\)", display: false },
      { left: "\\[", right: "\\]", display: true },
    ],
    throwOnError: false, // a bad formula shows as .katex-error; tests/test_site.py looks for it
  });
});
