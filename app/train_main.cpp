// atento-train: train an English→Spanish Transformer from sentence pairs.
#include "app/cli.h"
#include "app/trainer.h"

int main(int argc, char** argv) {
  return atento::guarded_main([&] {
    CLI::App app{"Train an English-to-Spanish Transformer from tab-separated sentence pairs.",
                 "atento-train"};
    atento::TrainArgs args;
    app.add_option("--config", args.config, "JSON configuration file")
        ->required()
        ->check(CLI::ExistingFile);
    app.add_option("--set", args.overrides, "Override one setting: section.key=value (repeatable)");
    app.add_option("--out", args.out, "Model directory (re-running resumes it)");
    app.add_option("--device", args.device, "cpu, cuda or cuda:N (default: train.device, cpu)")
        ->check(atento::device_name());
    app.footer("Example: atento-train --config configs/base.json --out runs/base");
    if (int code = atento::parse_command_line(app, argc, argv); code >= 0) return code;
    return atento::run_training(args);
  });
}
