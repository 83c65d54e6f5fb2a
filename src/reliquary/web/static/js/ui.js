// Small page helpers: a passing message, busy state.
export function flash(message) {
  let box = document.getElementById("flash");
  if (!box) {
    box = document.createElement("div");
    box.id = "flash";
    box.setAttribute("role", "status");
    document.body.appendChild(box);
  }
  box.textContent = message;
  box.className = "show";
  clearTimeout(flash.timer);
  flash.timer = setTimeout(() => { box.className = ""; }, 4000);
}
