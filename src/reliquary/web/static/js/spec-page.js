// The engineering rules specification (rule ids and decisions), rendered by the server.
import {applyStatic} from "./i18n.js";

applyStatic();
const rules = await fetch("/api/rules").then(r => r.json());
document.getElementById("rules-text").innerHTML = rules.html;
