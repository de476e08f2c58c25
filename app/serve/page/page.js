// atento-serve's page: translate with POST /translate (the beam's alternatives too), then draw
// the cross-attention of a chosen translation from POST /attention as a table: one row per
// output token, one column per source token, a cell's shade its weight. Plain JavaScript, no
// library, no network beyond this server.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);
  const END = '</s>';  // the label of the extra last step, the one that ended the sentence

  const state = {
    source: 'en',
    target: 'es',
    translations: [],  // the best translation, then the alternatives
    records: [],       // POST /attention: one record per line and sentence
  };

  // --- the API ------------------------------------------------------------------------------

  // GET (no body) or POST a JSON body; the parsed answer, or an Error with the server's message.
  async function api(path, body) {
    const init = body === undefined ? {} : {
      method: 'POST',
      headers: {'Content-Type': 'application/json'},
      body: JSON.stringify(body),
    };
    const response = await fetch(path, init);
    let answer = null;
    try {
      answer = await response.json();
    } catch (e) {
      throw new Error(`${path}: HTTP ${response.status}, not JSON`);
    }
    if (!response.ok) {
      throw new Error(answer && answer.error ? answer.error : `${path}: HTTP ${response.status}`);
    }
    return answer;
  }

  function setStatus(message, isError = false) {
    const status = $('status');
    status.textContent = message;
    status.classList.toggle('error', isError);
  }

  // The model's pair from GET /languages: the source is the language with targets.
  async function loadLanguages() {
    const languages = await api('languages');
    const source = languages.find((l) => l.targets && l.targets.length > 0);
    if (!source) throw new Error('the server lists no language pair');
    const target = languages.find((l) => l.code === source.targets[0]) ||
        {code: source.targets[0], name: source.targets[0]};
    state.source = source.code;
    state.target = target.code;
    $('pair').textContent = `${source.name} → ${target.name}`;
    $('source-label').textContent = `${source.name} text`;
    $('source').lang = source.code;
    document.title = `Atento: ${source.name} → ${target.name}`;
  }

  // --- translating --------------------------------------------------------------------------

  async function translate(event) {
    if (event) event.preventDefault();
    const q = $('source').value;
    if (!q.trim()) {
      setStatus('Type some text to translate first.', true);
      $('source').focus();
      return;
    }
    const request = {
      q,
      source: state.source,
      target: state.target,
      format: 'text',
      alternatives: Number($('alternatives').value),
    };
    $('translate').disabled = true;
    state.records = [];
    $('attention').hidden = true;  // never the heatmap of an earlier text
    setStatus('Translating…');
    try {
      const answer = await api('translate', request);
      state.translations = [answer.translatedText].concat(answer.alternatives || []);
      showTranslations();
      const warnings = answer.warnings ? ` ${answer.warnings.join(' ')}` : '';
      setStatus('Reading the attention…');
      try {
        state.records = await api('attention', request);
      } catch (error) {
        setStatus(`Translated, but the attention cannot be shown: ${error.message}${warnings}`, true);
        return;
      }
      showAttention();
      setStatus(state.records.length ? `Translated.${warnings}`
                                      : `Translated; nothing had attention to show.${warnings}`);
    } catch (error) {
      setStatus(`Error: ${error.message}`, true);
    } finally {
      $('translate').disabled = false;
    }
  }

  // The translations as radio buttons: the chosen one's attention is drawn.
  function showTranslations() {
    const list = $('translations');
    list.replaceChildren();
    state.translations.forEach((text, rank) => {
      const row = document.createElement('div');
      row.className = rank === 0 ? 'choice best' : 'choice';
      const radio = document.createElement('input');
      radio.type = 'radio';
      radio.name = 'choice';
      radio.id = `choice-${rank}`;
      radio.value = String(rank);
      radio.checked = rank === 0;
      radio.addEventListener('change', drawHeatmap);
      const label = document.createElement('label');
      label.htmlFor = radio.id;
      const output = document.createElement('output');
      output.id = rank === 0 ? 'translation' : `alternative-${rank}`;
      output.lang = state.target;
      output.textContent = text;
      const note = document.createElement('span');
      note.className = 'rank';
      note.textContent = rank === 0 ? '(best)' : `(alternative ${rank})`;
      label.append(output, note);
      row.append(radio, label);
      list.append(row);
    });
    $('result').hidden = false;
  }

  // --- the heatmap --------------------------------------------------------------------------

  // Fills `select` with options [value, text], keeping its value where it still exists.
  function fillSelect(select, options) {
    const previous = select.value;
    select.replaceChildren(...options.map(([value, text]) => new Option(text, value)));
    if (options.some(([value]) => value === previous)) select.value = previous;
  }

  function showAttention() {
    const section = $('attention');
    if (!state.records.length) {
      section.hidden = true;
      return;
    }
    const first = state.records[0];
    fillSelect($('piece'), state.records.map((r, i) => [String(i),
      `line ${r.line}, sentence ${r.piece}: ${r.source_tokens.slice(0, 6).join(' ')}` +
      (r.source_tokens.length > 6 ? ' …' : '')]));
    $('piece-control').hidden = state.records.length < 2;
    fillSelect($('layer'), first.layers.map((_, l) => [String(l), `${l + 1} of ${first.layers.length}`]));
    if ($('layer').selectedIndex < 0 || !$('layer').dataset.touched) {
      $('layer').value = String(first.layers.length - 1);  // the last layer by default
    }
    const heads = first.layers[0].length;
    fillSelect($('head'), [['average', 'average over heads']].concat(
        first.layers[0].map((_, h) => [String(h), `${h + 1} of ${heads}`])));
    section.hidden = false;
    drawHeatmap();
  }

  // The mean of heads [H][T][S] → [T][S].
  function averageHeads(heads) {
    return heads[0].map((row, t) => row.map((_, s) =>
      heads.reduce((sum, head) => sum + head[t][s], 0) / heads.length));
  }

  function chosenRank() {
    const checked = document.querySelector('input[name="choice"]:checked');
    return checked ? Number(checked.value) : 0;
  }

  function cell(tag, text, scope) {
    const element = document.createElement(tag);
    element.textContent = text;
    if (scope) element.scope = scope;
    return element;
  }

  function drawHeatmap() {
    const record = state.records[Number($('piece').value) || 0];
    if (!record) return;
    const rank = chosenRank();
    // An alternative the beam did not give for this sentence: its last one (as /translate).
    const alternatives = record.alternatives || [];
    const hypothesis = rank === 0 ? record
        : alternatives[Math.min(rank, alternatives.length) - 1] || record;
    const layer = Math.min(Number($('layer').value) || 0, hypothesis.layers.length - 1);
    const head = $('head').value;
    const heads = hypothesis.layers[layer];
    const matrix = head === 'average' ? averageHeads(heads) : heads[Number(head)];
    const columns = record.source_tokens;
    const rows = matrix.map((_, t) =>
      t < hypothesis.output_tokens.length ? hypothesis.output_tokens[t] : END);

    const table = $('heatmap');
    const caption = cell('caption', `${rank === 0 ? 'Best translation' : `Alternative ${rank}`}, ` +
        `layer ${layer + 1}, ${head === 'average' ? 'average over heads' : `head ${Number(head) + 1}`}: ` +
        `${rows.length} output tokens × ${columns.length} source tokens.`);
    caption.id = 'heatmap-caption';
    const head_row = document.createElement('tr');
    head_row.append(cell('td', ''), ...columns.map((token) => cell('th', token, 'col')));
    const thead = document.createElement('thead');
    thead.append(head_row);
    const tbody = document.createElement('tbody');
    matrix.forEach((weights, t) => {
      const tr = document.createElement('tr');
      tr.append(cell('th', rows[t], 'row'));
      weights.forEach((weight, s) => {
        const td = document.createElement('td');
        const w = Math.max(0, Math.min(1, weight));
        td.style.backgroundColor = `hsl(215, 80%, ${Math.round(97 - 72 * w)}%)`;
        td.title = `${rows[t]} → ${columns[s]}: ${weight.toFixed(3)}`;
        td.append(cell('span', weight.toFixed(2)));
        td.lastChild.className = 'visually-hidden';
        tr.append(td);
      });
      tbody.append(tr);
    });
    table.replaceChildren(caption, thead, tbody);
    table.dataset.rows = String(rows.length);
    table.dataset.columns = String(columns.length);
    table.dataset.layer = String(layer);
    table.dataset.head = head;
    table.dataset.rank = String(rank);
  }

  // --- wiring -------------------------------------------------------------------------------

  function onKey(event) {
    // Enter or Ctrl/Cmd+Enter translates; Shift+Enter is a new line.
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      if (!$('translate').disabled) $('translate-form').requestSubmit();
    }
  }

  document.addEventListener('DOMContentLoaded', () => {
    $('translate-form').addEventListener('submit', translate);
    $('source').addEventListener('keydown', onKey);
    $('piece').addEventListener('change', drawHeatmap);
    $('layer').addEventListener('change', () => {
      $('layer').dataset.touched = 'yes';
      drawHeatmap();
    });
    $('head').addEventListener('change', drawHeatmap);
    loadLanguages().catch((error) => setStatus(`Error: ${error.message}`, true));
  });
})();
