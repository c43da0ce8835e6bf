from boardreader.cli import main

raise SystemExit(main())
