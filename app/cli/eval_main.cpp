// atento-eval: next-word accuracy, loss, BLEU and chrF of a trained model, or BLEU and chrF of
// a translation file without a model; signatures, per-sentence scores, paired bootstrap.
#include "app/cli/cli.h"
#include "app/eval/evaluator.h"

namespace {

// The options that score translations, with or without a model.
void add_scoring_options(CLI::App& app, atento::EvalArgs& args, CLI::Option* model) {
  auto* hyps = app.add_option("--hyps", args.hyps,
                              "Translations to score: with --model, one per distinct source "
                              "(as --output writes them) instead of the model's; else "
                              "against --refs")
                   ->check(CLI::ExistingFile);
  app.add_option("--refs", args.refs, "Reference file(s), line by line with --hyps (no model)")
      ->check(CLI::ExistingFile)
      ->excludes(model)
      ->needs(hyps);
  app.add_flag("--json", args.json, "Print one JSON object instead of a table");
  app.add_option("--chrf-word-order", args.scores.chrf.word_order,
                 "Word n-gram order of chrF (2 = chrF++; default 0 = chrF)")
      ->check(atento::integer_range(0, 4));
  app.add_option("--per-sentence", args.scores.per_sentence,
                 "Write sentence BLEU<TAB>chrF, one line per sentence");
  auto* paired = app.add_option("--paired-bs", args.scores.paired_bs,
                                "Compare these translations (OTHER_HYPS) with the scored "
                                "ones by paired bootstrap resampling")
                     ->check(CLI::ExistingFile);
  app.add_option("--paired-bs-n", args.scores.bootstrap.resamples,
                 "Bootstrap resamples (default 1000)")
      ->check(atento::integer_range(1, 1000000))
      ->needs(paired);
  app.add_option("--bs-seed", args.scores.bootstrap.seed,
                 "Seed of the bootstrap draws (default 12345, as sacreBLEU)")
      ->check(atento::integer_range(0))
      ->needs(paired);
}

// The options that only make sense when a model translates: each needs --model.
void add_model_options(CLI::App& app, atento::EvalArgs& args, CLI::Option* model) {
  auto model_only = [&](CLI::Option* option) { option->needs(model); };
  model_only(app.add_option("--beam", args.flags.beam, "Beam width for BLEU/chrF (1 = greedy)")
                 ->check(atento::integer_range(1, 256)));
  model_only(app.add_option("--batch-size", args.flags.batch_size,
                            "Decoder rows per batch when translating (sentences x beam)")
                 ->check(atento::integer_range(1, 1 << 20)));
  model_only(app.add_option("--output", args.output,
                            "Also write the model's translations to this file (one per "
                            "distinct source)")
                 ->excludes(app.get_option("--hyps")));
  model_only(app.add_option("--short-outputs", args.short_outputs,
                            "Write the short translations (the 'short' figure's) as "
                            "source<TAB>translation<TAB>unseen|seen<TAB>references; needs the "
                            "model directory's train.tsv"));
  model_only(app.add_flag("--no-split", args.flags.no_split,
                          "Translate each source whole instead of sentence by sentence"));
  model_only(app.add_flag("--no-translate", args.no_translate,
                          "Only the teacher-forced figures (skip BLEU/chrF)")
                 ->excludes(app.get_option("--hyps"))
                 ->excludes(app.get_option("--per-sentence"))
                 ->excludes(app.get_option("--paired-bs"))
                 ->excludes(app.get_option("--short-outputs")));
  model_only(app.add_option("--device", args.flags.device,
                            "cpu, cuda or cuda:N (default: translate.device)")
                 ->check(atento::device_name()));
  model_only(app.add_option("--threads", args.flags.threads, "CPU threads (0 = all cores)")
                 ->check(atento::integer_range(0, 1024)));
  model_only(app.add_option("--precision", args.flags.precision,
                            "Decoding arithmetic: fp32, bf16, int8 or auto (default: "
                            "translate.precision)")
                 ->check(atento::precision_name()));
  model_only(app.add_option("--set", args.overrides,
                            "Override a translate.* setting: translate.key=value"));
}

}  // namespace

int main(int argc, char** argv) {
  return atento::guarded_main([&] {
    CLI::App app{
        "Evaluate a trained Atento model on English<TAB>Spanish pairs, or score "
        "translations against references without a model.",
        "atento-eval"};
    atento::EvalArgs args;
    auto* model = app.add_option("--model", args.model_dir,
                                 "Model directory written by atento-train (with --pairs)")
                      ->check(CLI::ExistingDirectory);
    auto* pairs = app.add_option("--pairs", args.pairs, "Evaluation pairs (TSV); needs --model");
    model->needs(pairs);
    pairs->needs(model);
    add_scoring_options(app, args, model);
    add_model_options(app, args, model);
    if (int code = atento::parse_command_line(app, argc, argv); code >= 0) return code;
    return atento::run_evaluation(args);
  });
}
