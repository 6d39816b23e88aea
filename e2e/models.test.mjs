// End-to-end tests of the newer model kinds and number formats in the page, in English and
// Chinese: DeepSeek-V3's multi-head latent attention with its fields, RWKV-7's linear attention, NVFP4 on B300 against
// FP8, Wan 2.1's attention in both directions and to its prompt, and Llama 3 8B at a million tokens with context parallelism by kind; each link
// reopens its plan.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertClean, harness, newContext, newPage, num, open, origin, q, select, served, text, until,
} from './harness.mjs';

harness();

const link = (s) => `${origin}/#s=1.${Buffer.from(JSON.stringify(s)).toString('base64url')}`;

for (const lang of ['en', 'zh-CN']) {
  test(`${lang}: MLA fields, NVFP4 on B300, a diffusion transformer, a sliding window and a million-token context`, async (t) => {
    const log = { errors: [], requests: [] };
    const page = await newPage(await newContext(t, { locale: lang }), log);
    // DeepSeek-V3's attention is latent, with its dimensions in the form.
    await open(page, link({ model: { preset: 'deepseek-v3' }, training: { tokens: '14.8T', global_batch: 15360, recipe: 'fp8' },
      cluster: { chip: 'h800', chips: 2048 }, parallelism: { tp: 1, pp: 16, ep: 64 } }));
    assert.equal(await page.inputValue(q('attention')), 'mla');
    const option = await page.locator(`${q('attention')} option[value="mla"]`).textContent();
    assert.match(option, lang === 'en' ? /latent/ : /潜在/);
    assert.equal(await page.getAttribute(q('kv-lora-rank'), 'placeholder'), '512');
    assert.equal(await page.getAttribute(q('q-lora-rank'), 'placeholder'), '1,536');
    // Another kernel turns the latent attention off, and its fields go.
    await select(page, 'attention', 'flash');
    await until(page, 'the MLA fields gone', (s) => !document.querySelector(s), q('kv-lora-rank'));

    // Nemotron-H 8B is a hybrid: its pattern in plain words, its Mamba-2 fields; a pattern
    // typed makes another hybrid, and emptied the model is a transformer again.
    await open(page, link({ model: { preset: 'nemotron-h-8b' }, training: { tokens: '20T', global_batch: 768 },
      cluster: { chip: 'h100-sxm', chips: 1024 }, parallelism: { tp: 4, pp: 1 } }));
    assert.match(await text(page, 'hybrid-reads'), lang === 'en' ? /28 layers; Mamba mixers: 24, attention blocks: 4/ : /共 28 层：24 个 Mamba/);
    assert.equal(await page.getAttribute(q('mamba-state'), 'placeholder'), '128');
    await page.fill(q('hybrid-pattern'), 'M-M-M-*-');
    await page.press(q('hybrid-pattern'), 'Enter');
    // Leaving the field commits it too, as it does for a user who tabs on; a field already
    // committed by Enter has nothing left to commit.
    await page.locator(q('hybrid-pattern')).blur();
    // The old reading has a 4 in it too (4 attention blocks): wait for the new one itself.
    const typed = lang === 'en' ? /\b4 layers; Mamba mixers: 3, attention blocks: 1/ : /共 4 层：3 个 Mamba/;
    await until(page, 'the typed pattern read', ([s, re]) => new RegExp(re).test(document.querySelector(s)?.textContent ?? ''), [q('hybrid-reads'), typed.source]);

    // RWKV-7 2.9B: 32 linear-attention layers of its kind with their fields; Gated DeltaNet
    // instead trades the low-rank projections for a convolution.
    await open(page, link({ model: { preset: 'rwkv7-2.9b' }, training: { tokens: '3T', global_batch: 256 },
      cluster: { chip: 'h100-sxm', chips: 32 }, parallelism: { tp: 1, pp: 1 } }));
    assert.match(await text(page, 'hybrid-reads'), lang === 'en' ? /32 layers; .*linear attention: 32/ : /32 个线性注意力层/);
    assert.equal(await page.inputValue(q('linear-kind')), 'rwkv7');
    assert.equal(await page.getAttribute(q('linear-lora'), 'placeholder'), '576');
    const rwkv = await text(page, 'step-time');
    await select(page, 'linear-kind', 'gated_deltanet');
    await until(page, 'the convolution field', (s) => !!document.querySelector(s), q('linear-conv'));
    await until(page, 'the Gated DeltaNet step', ([s, was]) => document.querySelector(s)?.textContent.trim() !== was,
      [q('step-time'), rwkv]);

    // Jamba 1.5 Mini's mixers are Mamba-1, with their step rank; Mamba-2 brings its groups
    // and chunks instead.
    await open(page, link({ model: { preset: 'jamba-1.5-mini' }, training: { tokens: '1T', global_batch: 512 },
      cluster: { chip: 'h100-sxm', chips: 256 }, parallelism: { tp: 2, pp: 1, ep: 8 } }));
    assert.equal(await page.inputValue(q('mamba-kind')), 'mamba1');
    assert.equal(await page.getAttribute(q('mamba-dt-rank'), 'placeholder'), '256');
    await select(page, 'mamba-kind', 'mamba2');
    await until(page, 'the Mamba-2 chunk field', (s) => !!document.querySelector(s), q('mamba-chunk'));

    // NVFP4 on B300 beside FP8, the same plan.
    await open(page, link({ model: { preset: 'llama3-70b' }, training: { tokens: '15T', global_batch: 1024, recipe: 'fp8' },
      cluster: { chip: 'b300', chips: 1024 }, parallelism: { tp: 8, pp: 4 } }));
    const before = await text(page, 'step-time');
    const fp8 = num(before);
    // A vision encoder ahead of the model adds its time; its fields show Qwen2-VL's ViT.
    await page.check(q('vision'));
    await until(page, 'the encoder fields', (s) => !!document.querySelector(s), q('vision-layers'));
    assert.equal(await page.getAttribute(q('vision-layers'), 'placeholder'), '32');
    await until(page, 'the step with the encoder', ([s, was]) => document.querySelector(s)?.textContent.trim() !== was,
      [q('step-time'), before]);
    assert.ok(num(await text(page, 'step-time')) > fp8, 'the encoder takes time');
    await page.uncheck(q('vision'));
    await until(page, 'the step without it', ([s, was]) => document.querySelector(s)?.textContent.trim() === was,
      [q('step-time'), before]);
    await select(page, 'recipe', 'nvfp4');
    await until(page, 'the NVFP4 step', ([s, was]) => document.querySelector(s)?.textContent.trim() !== was,
      [q('step-time'), before]);
    const fp4 = num(await text(page, 'step-time'));
    assert.ok(fp4 < fp8 && fp4 > fp8 / 2, `NVFP4 ${fp4} s against FP8 ${fp8} s`);

    // INT8 as MaxText trains GPT-3 175B on 256 TPU v6e: faster than BF16, but by far less than
    // the doubled peak, every operand being quantized as it runs; Gaudi 3 publishes no INT8
    // figure, so its step stays BF16's and the page says why.
    await open(page, link({ model: { preset: 'gpt3-175b', seq_len: 2048 }, training: { tokens: '300B', global_batch: 768 },
      cluster: { chip: 'tpu-v6e', chips: 256, scale_up_domain: 256 },
      parallelism: { tp: 1, pp: 1, dp: 256, micro_batch: 3, zero: 3, recompute: 'full', stack: 'xla' } }));
    const bf16 = await text(page, 'step-time');
    await select(page, 'recipe', 'int8');
    await until(page, 'the INT8 step', ([s, was]) => document.querySelector(s)?.textContent.trim() !== was,
      [q('step-time'), bf16]);
    const int8 = num(await text(page, 'step-time'));
    assert.ok(int8 < num(bf16) && int8 > num(bf16) / 1.5, `INT8 ${int8} s against BF16 ${bf16}`);
    await select(page, 'chip', 'gaudi3');
    await until(page, 'the INT8 warning', (s) => /INT8/.test(document.querySelector(s)?.textContent ?? ''), q('warnings'));

    // Wan 2.1 14B, a video diffusion transformer: attention in both directions and
    // cross-attention to a 512-token prompt. A causal mask would halve its scores; without
    // the prompt its step is shorter.
    await open(page, link({ model: { preset: 'wan2.1-14b' }, training: { tokens: '100B', global_batch: 128 },
      cluster: { chip: 'h100-sxm', chips: 128 }, parallelism: { tp: 2, pp: 1, cp: 4, recompute: 'full' } }));
    assert.equal(await page.isChecked(q('causal')), false);
    assert.equal(await page.isChecked(q('cross-attention')), true);
    assert.equal(await page.getAttribute(q('cross-tokens'), 'placeholder'), '512');
    const both = await text(page, 'step-time');
    await page.check(q('causal'));
    await until(page, 'the causal step', ([s, was]) => document.querySelector(s)?.textContent.trim() !== was,
      [q('step-time'), both]);
    const causal = await text(page, 'step-time');
    assert.ok(num(causal) < num(both), `causal ${causal} against both directions ${both}`);
    await page.uncheck(q('cross-attention'));
    await until(page, 'the prompt fields gone', (s) => !document.querySelector(s), q('cross-tokens'));
    await until(page, 'the step without the prompt', ([s, was]) => document.querySelector(s)?.textContent.trim() !== was,
      [q('step-time'), causal]);
    assert.ok(num(await text(page, 'step-time')) < num(causal), 'the prompt takes time');

    // A sliding window, started from GPT-OSS's (windows of 128 tokens on every other layer):
    // at 8,192 tokens the step is shorter, and the link the page writes brings it back.
    await open(page, link({ model: { preset: 'llama3-8b' }, training: { tokens: '100B', global_batch: 64 },
      cluster: { chip: 'h100-sxm', chips: 64 }, parallelism: { tp: 1, pp: 1 } }));
    assert.equal(await page.isChecked(q('window')), false);
    const whole = await text(page, 'step-time');
    await page.check(q('window'));
    await until(page, 'the window fields', (s) => !!document.querySelector(s), q('window-tokens'));
    await until(page, 'the windowed step', ([s, was]) => document.querySelector(s)?.textContent.trim() !== was,
      [q('step-time'), whole]);
    const windowed = await text(page, 'step-time');
    assert.ok(num(windowed) < num(whole), `windowed ${windowed} against whole ${whole}`);
    const fresh = await newPage(page.context(), log);
    await open(fresh, page.url());
    assert.equal(await fresh.isChecked(q('window')), true);
    assert.equal(await text(fresh, 'step-time'), windowed);
    await fresh.close();

    // Llama 3 8B at 1,048,576 tokens on 512 H100 with CP 32, exchanging by Ulysses in the
    // domain and a ring across: it runs and fits.
    await open(page, link({ model: { preset: 'llama3-8b', seq_len: 1048576 }, training: { tokens: '100B', global_batch: 16 },
      cluster: { chip: 'h100-sxm', chips: 512 }, parallelism: { tp: 8, pp: 1, cp: 32, recompute: 'full' } }));
    await select(page, 'cp-kind', 'both');
    await until(page, 'the plan with both', (s) => document.querySelector(s)?.value === 'both', q('cp-kind'));
    assert.equal(await page.locator(q('problems')).count(), 0, 'it runs');
    const [used, of] = (await text(page, 'memory-per-chip')).replace(/,/g, '').match(/[\d.]+/g).map(Number);
    assert.ok(used < of, `${used} GiB of ${of}`);
    // Ulysses alone cannot split 32 heads among TP 8 x CP 32 ranks, and says so.
    await select(page, 'cp-kind', 'ulysses');
    await until(page, 'the heads problem', (s) => !!document.querySelector(s), q('problems'));
    assert.match(await text(page, 'problems'), /Ulysses/);
    // The link reopens it.
    const again = await newPage(await newContext(t, { locale: lang }), log);
    await open(again, page.url());
    assert.equal(await again.inputValue(q('cp-kind')), 'ulysses');
    assertClean(log, served());
  });
}
