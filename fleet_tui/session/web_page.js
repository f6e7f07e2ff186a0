"use strict";
// The exported session page's keys: a filter box, j/k between steps, c to copy a step's call.
(function () {
  const steps = Array.from(document.querySelectorAll("section.step"));
  const filter = document.getElementById("filter");
  const shown = document.getElementById("shown");
  let current = -1;

  function visible() {
    return steps.filter((step) => !step.classList.contains("hidden"));
  }

  function applyFilter() {
    const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    for (const step of steps) {
      const text = step.textContent.toLowerCase();
      step.classList.toggle("hidden", !words.every((word) => text.includes(word)));
    }
    const count = visible().length;
    shown.textContent = words.length ? count + " of " + steps.length + " steps" :
      steps.length + " steps";
  }

  function select(step) {
    for (const other of steps) other.classList.remove("current");
    if (!step) return;
    step.classList.add("current");
    step.focus({ preventScroll: true });
    step.scrollIntoView({ block: "start", behavior: "instant" });
    window.scrollBy(0, -document.getElementById("top").offsetHeight - 8);
    current = steps.indexOf(step);
  }

  function move(by) {
    const list = visible();
    if (!list.length) return;
    const at = list.indexOf(steps[current]);
    const next = at < 0 ? (by > 0 ? 0 : list.length - 1) : Math.min(list.length - 1, Math.max(0, at + by));
    select(list[next]);
  }

  function copy(button) {
    const text = button.dataset.command;
    const done = () => { button.textContent = "copied"; };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, () => fallbackCopy(text, done));
    } else {
      fallbackCopy(text, done);
    }
  }

  function fallbackCopy(text, done) {
    const area = document.createElement("textarea");
    area.value = text;
    document.body.appendChild(area);
    area.select();
    if (document.execCommand("copy")) done();
    area.remove();
  }

  filter.addEventListener("input", applyFilter);
  filter.addEventListener("keydown", (event) => {
    if (event.key === "Escape" || event.key === "Enter") { filter.blur(); move(0); }
  });
  for (const button of document.querySelectorAll("button.copy")) {
    button.addEventListener("click", () => copy(button));
  }
  for (const step of steps) step.addEventListener("click", () => select(step));
  document.addEventListener("keydown", (event) => {
    if (event.target === filter || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "j") move(1);
    else if (event.key === "k") move(-1);
    else if (event.key === "/") { event.preventDefault(); filter.focus(); }
    else if (event.key === "c" && steps[current]) {
      const button = steps[current].querySelector("button.copy");
      if (button) copy(button);
    } else return;
  });
  // Each picture's caption says its size as the browser decoded it.
  for (const image of document.querySelectorAll("figure.image img")) {
    const caption = image.parentElement.querySelector("figcaption");
    const say = () => {
      if (image.naturalWidth) {
        caption.textContent = image.naturalWidth + "×" + image.naturalHeight + " · " + caption.textContent;
        image.dataset.natural = image.naturalWidth + "x" + image.naturalHeight;
      }
    };
    if (image.complete) say(); else image.addEventListener("load", say, { once: true });
  }
  applyFilter();
})();
