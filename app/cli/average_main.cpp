// atento-average: average the last checkpoints of a trained model into a new model directory.
#include "app/cli/cli.h"
#include "app/train/average_checkpoints.h"

int main(int argc, char** argv) {
  return atento::guarded_main([&] {
    CLI::App app{"Average the weights of a model's last checkpoints into a new model directory.",
                 "atento-average"};
    atento::AverageArgs args;
    app.add_option("--model", args.model_dir, "Model directory written by atento-train")
        ->required()
        ->check(CLI::ExistingDirectory);
    app.add_option("--out", args.out_dir, "New model directory to write")->required();
    app.add_option("--last", args.last,
                   "How many of the newest checkpoints to average (train.keep_checkpoints "
                   "keeps them)")
        ->check(atento::integer_range(1, 1 << 20));
    app.add_option("--weights", args.weights,
                   "trained: the optimiser's weights; average: their moving average "
                   "(train.ema_decay)")
        ->transform(CLI::CheckedTransformer(
            std::map<std::string, atento::AveragedWeights>{
                {"trained", atento::AveragedWeights::kTrained},
                {"average", atento::AveragedWeights::kAverage}},
            CLI::ignore_case));
    if (int code = atento::parse_command_line(app, argc, argv); code >= 0) return code;
    return atento::run_average(args);
  });
}
