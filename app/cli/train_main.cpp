// atento-train: train an English→Spanish Transformer from sentence pairs.
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/cli/cli.h"
#include "app/common/config.h"
#include "app/distributed/local_launcher.h"
#include "app/filter/filter_trainer.h"
#include "app/train/trainer.h"

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
    app.add_option("--nproc", args.nproc,
                   "Data-parallel ranks to start on this machine (default 1; see also RANK, "
                   "WORLD_SIZE, MASTER_ADDR, MASTER_PORT)")
        ->check(atento::integer_range(1, 1024));
    std::string init_from;
    app.add_option("--init-from", init_from,
                   "Fine-tune: start a new run from this trained model's weights and tokenizers "
                   "(train.init_from)")
        ->check(CLI::ExistingDirectory);
    bool print_config = false;
    app.add_flag("--print-config", print_config,
                 "Print the resolved configuration (defaults, file, --set) as JSON and exit");
    app.footer("Example: atento-train --config configs/base.json --out runs/base");
    if (int code = atento::parse_command_line(app, argc, argv); code >= 0) return code;
    if (!init_from.empty()) args.overrides.push_back("train.init_from=" + init_from);
    if (print_config) {
      std::cout << atento::config_to_json(atento::load_config(args.config, args.overrides)).dump(2)
                << "\n";
      return atento::kExitOk;
    }
    if (args.nproc > 1)
      return atento::launch_local_ranks(args.nproc, atento::without_nproc(argc, argv));
    atento::TrainingJob job = atento::open_training_job(args);
    return job.config.filter.pretrained.empty() ? atento::run_translation_training(job)
                                                : atento::run_filter_training(job);
  });
}
