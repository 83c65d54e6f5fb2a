// Reliquary's front end: routing between the start page, a game and a replay.
import {api} from "./net.js";
import {applyStatic, bindLangButtons, onLangChange, t, esc, errorText} from "./i18n.js";
import {renderHome} from "./lobby.js";
import {openGame, closeGame, rerender, setRouter, notFound} from "./game.js";
import {openReplay, redrawReplay} from "./replay.js";
import {useGloryData} from "./glory.js";

const app = document.getElementById("app");
let meta = null;

function go(url) {
  history.pushState(null, "", url);
  route();
}

function route() {
  const path = location.pathname;
  let m;
  if ((m = path.match(/^\/g\/([0-9A-Za-z_-]+)$/))) {
    openGame(app, meta, m[1], new URLSearchParams(location.search));
  } else if ((m = path.match(/^\/replay\/([0-9A-Za-z_-]+)$/))) {
    closeGame();
    openReplay(app, meta, m[1]);
  } else if (path === "/" || path === "") {
    closeGame();
    document.body.classList.remove("playing");
    renderHome(app, meta, go);
  } else {  // a game or replay address that cannot be a game's (/g/%%%bad..id)
    closeGame();
    document.body.classList.remove("playing");
    notFound();
  }
}

window.addEventListener("popstate", route);
setRouter(go);
onLangChange(() => {
  if (location.pathname.startsWith("/g/")) rerender();
  else if (location.pathname.startsWith("/replay/")) redrawReplay();
  else route();
});

(async () => {
  applyStatic();
  bindLangButtons();
  try { meta = await api("GET", "/api/meta"); } catch (err) {
    app.innerHTML = `<p class="error">${esc(errorText(err))}</p>`;
    return;
  }
  useGloryData(meta);  // the upgrades' words, from the module's data
  document.title = "Reliquary";
  route();
})();
export {t};
