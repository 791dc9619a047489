"""GameAction.game without an index of its own: the unique (game, seq) constraint's index leads with the game
and serves every lookup by game; the second index cost each appended log row one more insertion (issue 42)."""
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0020_game_state_lag'),
    ]

    operations = [
        migrations.AlterField(
            model_name='gameaction',
            name='game',
            field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='actions', to='games.game'),
        ),
    ]
