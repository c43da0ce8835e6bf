// Shared by the overlay and the referee console: the live feed and what a state means on screen.
"use strict";

const boardreader = (() => {
  // Connects to the match's WebSocket feed and reconnects by itself (backoff up to 1.5 s).
  function connectLive(matchId, onState, onStatus) {
    let retryMs = 250;
    function open() {
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      const socket = new WebSocket(`${scheme}://${location.host}/api/matches/${matchId}/live`);
      socket.onopen = () => { retryMs = 250; onStatus && onStatus("live"); };
      socket.onmessage = (message) => onState(JSON.parse(message.data));
      socket.onclose = () => {
        onStatus && onStatus("reconnecting");
        setTimeout(open, retryMs);
        retryMs = Math.min(retryMs * 2, 1500);
      };
    }
    open();
  }

  function sidesOf(state) {
    return state.sides || (state.match && state.match.sides) ||
      (state.game === "couronne" ? ["pink", "blue"] : ["A", "B"]);
  }

  function lastGame(state) {
    return (state.games && state.games.length) ? state.games[state.games.length - 1] : null;
  }

  // The numbers shown beside each name.
  function scoreOf(state) {
    const game = lastGame(state);
    if (state.game === "couronne") return state.pocketed || {};
    if (!game) return {};
    if (state.game === "crokinole" && game.points) return game.points;
    return game.display_score || game.score || {};
  }

  function periodOf(state) {
    const live = state.live || {};
    if (state.game === "carrom") return `Game ${live.game ?? "-"} · Board ${live.board ?? "-"}`;
    if (state.game === "crokinole") return `Game ${live.game ?? "-"} · Round ${live.round ?? "-"}`;
    return `Turn: ${live.turn ?? state.turn ?? "-"}`;
  }

  function detailOf(state) {
    const live = state.live || {};
    if (state.game === "carrom") {
      const queen = {
        on_board: "Queen on the board",
        pending_cover: `Queen to cover (${live.queen_side ?? "?"})`,
        covered: `Queen covered by ${live.queen_side ?? "?"}`,
      }[live.queen] || (live.queen ? `Queen: ${live.queen}` : "");
      return queen;
    }
    if (state.game === "crokinole") {
      const twenties = state.twenties || (lastGame(state) || {}).twenties || {};
      return "20s " + sidesOf(state).map((side) => `${side} ${twenties[side] ?? 0}`).join(" · ");
    }
    const left = state.rings_left || {};
    return "Rings left " + sidesOf(state).map((side) => `${side} ${left[side] ?? "-"}`).join(" · ");
  }

  function describeEvent(event) {
    if (!event) return "";
    switch (event.type) {
      case "stroke":
        if (Array.isArray(event.pocketed)) {
          const what = event.pocketed.length ? event.pocketed.join(", ") : "nothing";
          return `Stroke: ${what}${event.striker ? " + striker" : ""}${event.foul ? " (foul)" : ""}`;
        }
        if (event.pocketed) return `Stroke: own ${event.pocketed.own ?? 0}, opponent ${event.pocketed.opponent ?? 0}`;
        return "Stroke";
      case "board": return `Board to ${event.winner} (${event.opponent_coins_left} coins left, queen ${event.queen})`;
      case "round": {
        const discs = event.discs || {}, twenties = event.twenties || {};
        const raw = (side) => discs[side].reduce((a, b) => a + b, 0) + 20 * (twenties[side] || 0);
        return "Round: " + Object.keys(discs).map((side) => `${side} ${raw(side)}`).join(" – ");
      }
      case "correct": return `Correction of ${event.target}: ${describeEvent(event.event)}`;
      case "void": return `Undo: ${event.target} removed`;
      case "foul": return `Foul by ${event.side ?? "?"}`;
      default: return event.type;
    }
  }

  function summary(state) {
    const sides = sidesOf(state);
    const score = scoreOf(state);
    return {
      sides,
      gamesWon: state.games_won ? sides.map((side) => state.games_won[side] ?? 0) : null,
      scores: sides.map((side) => score[side] ?? 0),
      period: periodOf(state),
      detail: detailOf(state),
      last: state.winner ? `Winner: ${state.winner}` : describeEvent(state.last_event && state.last_event.event),
      seq: state.seq,
    };
  }

  return { connectLive, summary, describeEvent, sidesOf };
})();
