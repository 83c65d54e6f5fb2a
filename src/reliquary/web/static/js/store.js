// "My games": the seat links this browser holds, kept in localStorage.
const KEY = "reliquary.games";

export function myGames() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(list) ? list : [];
  } catch { return []; }
}
export function remember(game) {
  // game: {id, token, seat, mode, link}
  const list = myGames().filter(g => g.id !== game.id);
  list.unshift({...game, saved: Date.now()});
  localStorage.setItem(KEY, JSON.stringify(list.slice(0, 50)));
}
export function forget(id) {
  localStorage.setItem(KEY, JSON.stringify(myGames().filter(g => g.id !== id)));
}
export function update(id, fields) {
  const list = myGames().map(g => (g.id === id ? {...g, ...fields} : g));
  localStorage.setItem(KEY, JSON.stringify(list));
}
