// Pictures are made as their group of tiles nears the screen: 20,000 images at once would
// keep a browser busy for many seconds (native lazy loading does not spare that here).
// Those of the first screen are made at once, not on the observer's first callback.
(() => {
  const show = (group) => group.querySelectorAll(".picture[data-src]:not(.shown)").forEach((holder) => {
    const img = document.createElement("img");
    img.src = holder.dataset.src; img.alt = ""; img.decoding = "async";
    holder.replaceChildren(img); holder.classList.add("shown"); });
  const groups = document.querySelectorAll(".tiles");
  if (!("IntersectionObserver" in window)) { groups.forEach(show); return; }
  const watch = new IntersectionObserver((entries) => entries.forEach((entry) => {
    if (entry.isIntersecting) { show(entry.target); watch.unobserve(entry.target); } }), { rootMargin: "1200px 0px" });
  // The groups on or near the first screen at once, the rest as they come near it.
  const near = (box) => box.bottom > -1200 && box.top < innerHeight + 1200;
  groups.forEach((group) => near(group.getBoundingClientRect()) ? show(group) : watch.observe(group));
})();
